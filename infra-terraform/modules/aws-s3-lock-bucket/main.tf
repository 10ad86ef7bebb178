# The lock bucket. Job records never expire: a deleted lock object would restart its fencing token.
resource "aws_s3_bucket" "locks" {
  bucket        = var.bucket_name
  force_destroy = var.force_destroy
  tags          = var.tags
}

# Occurrence records (<job>@<tick>, with every occurrence recorded) are kept apart, under <prefix>occurrences/, which
# no job's key can start with: this rule expires them and nothing else, a day more than the guard's retention
# (CLOUDLOCK_OCCURRENCE_RETENTION) since S3 counts from the object's last write. This is the bucket's only
# lifecycle configuration: another one for the same bucket would replace it.
resource "aws_s3_bucket_lifecycle_configuration" "locks" {
  bucket = aws_s3_bucket.locks.id

  rule {
    id     = "cloudlock-occurrence-records"
    status = "Enabled"

    filter {
      prefix = "${var.key_prefix}occurrences/"
    }

    expiration {
      days = var.occurrence_expiration_days
    }
  }
}

# Versioning stays off: every conditional PUT of a lock would otherwise keep a noncurrent version forever.
resource "aws_s3_bucket_versioning" "locks" {
  bucket = aws_s3_bucket.locks.id

  versioning_configuration {
    status = "Disabled"
  }
}

resource "aws_s3_bucket_public_access_block" "locks" {
  bucket                  = aws_s3_bucket.locks.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_server_side_encryption_configuration" "locks" {
  bucket = aws_s3_bucket.locks.id

  rule {
    bucket_key_enabled = var.kms_key_arn != null

    apply_server_side_encryption_by_default {
      sse_algorithm     = var.kms_key_arn == null ? "AES256" : "aws:kms"
      kms_master_key_id = var.kms_key_arn
    }
  }
}

# Exactly what cloudlock-s3 needs (docs/stores/s3.md, Permissions): its conditional GET/HEAD and PUT on the lock
# objects under the prefix, and s3:ListBucket on the bucket, without which S3 answers 403 instead of 404 for a lock
# never taken before (no s3:prefix condition: that check of ListBucket carries no prefix). Never s3:DeleteObject:
# a deleted lock object restarts its fencing token.
data "aws_iam_policy_document" "lock_access" {
  statement {
    sid       = "CloudlockLockObjects"
    actions   = ["s3:GetObject", "s3:PutObject"]
    resources = ["${aws_s3_bucket.locks.arn}/${var.key_prefix}*"]
  }

  statement {
    sid       = "CloudlockNotFoundIsNotAccessDenied"
    actions   = ["s3:ListBucket"]
    resources = [aws_s3_bucket.locks.arn]
  }
}
