output "bucket_name" {
  description = "The lock bucket name, for the S3 provider's builder."
  value       = aws_s3_bucket.locks.bucket
}

output "bucket_arn" {
  description = "ARN of the lock bucket."
  value       = aws_s3_bucket.locks.arn
}

output "key_prefix" {
  description = "Key prefix of the lock objects, for the S3 provider's builder."
  value       = var.key_prefix
}

output "lock_access_policy_json" {
  description = "IAM policy (JSON) with what the provider needs: object reads and writes under the prefix only, and s3:ListBucket on the bucket so a missing lock is a 404."
  value       = data.aws_iam_policy_document.lock_access.json
}
