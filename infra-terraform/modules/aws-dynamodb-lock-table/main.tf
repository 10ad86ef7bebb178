# The lock table. TTL only on expiresAt, which only occurrence records (<job>@<tick>) carry: a job's record never
# expires, since a deleted record would restart its fencing token at 1.
# Keyed by the partition key only (ShedLock's layout), or by partition key and sort key (an application's single
# table, with lock items under one sort key value: DynamoDbLockProvider.builder().sortKey(var.sort_key, "LOCK#")).
resource "aws_dynamodb_table" "locks" {
  name                        = var.table_name
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = var.partition_key
  range_key                   = var.sort_key
  deletion_protection_enabled = var.deletion_protection
  tags                        = var.tags

  attribute {
    name = var.partition_key
    type = "S"
  }

  dynamic "attribute" {
    for_each = var.sort_key == null ? [] : [var.sort_key]
    content {
      name = attribute.value
      type = "S"
    }
  }

  ttl {
    attribute_name = "expiresAt"
    enabled        = true
  }

  point_in_time_recovery {
    enabled = var.point_in_time_recovery
  }
}

# Exactly what cloudlock-dynamodb calls, on this table only.
data "aws_iam_policy_document" "lock_access" {
  statement {
    sid       = "CloudlockLockRecords"
    actions   = ["dynamodb:GetItem", "dynamodb:UpdateItem"]
    resources = [aws_dynamodb_table.locks.arn]
  }

  dynamic "statement" {
    for_each = var.allow_describe_table ? [1] : []
    content {
      sid       = "CloudlockExplainKeyMismatch"
      actions   = ["dynamodb:DescribeTable"]
      resources = [aws_dynamodb_table.locks.arn]
    }
  }
}
