output "lock_table_name" {
  description = "The DynamoDB lock table (CLOUDLOCK_DYNAMODB_TABLE_NAME)."
  value       = module.lock_table.table_name
}

output "lock_table_partition_key" {
  description = "Partition key of the lock table."
  value       = module.lock_table.partition_key
}

output "lock_access_policy_json" {
  description = "The least-privilege lock policy, to attach to other lock users (e.g. a Spring app's role)."
  value       = module.lock_table.lock_access_policy_json
}

output "function_name" {
  description = "The guarded Lambda function."
  value       = module.job.function_name
}

output "job_name" {
  description = "Lock name of the job: the _id of its lock record."
  value       = module.job.job_name
}

output "log_group_name" {
  description = "Where the guard logs each tick's outcome."
  value       = module.job.log_group_name
}

output "dead_letter_queue_url" {
  description = "Failed and undeliverable ticks."
  value       = module.job.dead_letter_queue_url
}
