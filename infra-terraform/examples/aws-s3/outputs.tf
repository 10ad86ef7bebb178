output "lock_bucket_name" {
  description = "The S3 lock bucket (CLOUDLOCK_S3_BUCKET)."
  value       = module.lock_bucket.bucket_name
}

output "lock_key_prefix" {
  description = "Key prefix of the lock objects (CLOUDLOCK_S3_PREFIX)."
  value       = module.lock_bucket.key_prefix
}

output "lock_access_policy_json" {
  description = "The least-privilege lock policy, to attach to other lock users (e.g. a Spring app's role)."
  value       = module.lock_bucket.lock_access_policy_json
}

output "function_name" {
  description = "The guarded Lambda function."
  value       = module.job.function_name
}

output "job_name" {
  description = "Lock name of the job: its object is <lock_key_prefix><job_name>, percent-encoded."
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
