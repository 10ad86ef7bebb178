output "table_name" {
  description = "The lock table name: DynamoDbLockProvider.builder().tableName(...), or CLOUDLOCK_DYNAMODB_TABLE_NAME for the Lambda guard."
  value       = aws_dynamodb_table.locks.name
}

output "table_arn" {
  description = "ARN of the lock table."
  value       = aws_dynamodb_table.locks.arn
}

output "partition_key" {
  description = "The table's partition key; pass it to .partitionKey(...) only when it is not \"_id\"."
  value       = aws_dynamodb_table.locks.hash_key
}

output "sort_key" {
  description = "The table's sort key, or null; when set, pass it to .sortKey(<sort_key>, \"LOCK#\")."
  value       = aws_dynamodb_table.locks.range_key
}

output "lock_access_policy_json" {
  description = "IAM policy (JSON) with exactly the DynamoDB actions the provider calls on this table; attach it to the role of every lock user."
  value       = data.aws_iam_policy_document.lock_access.json
}
