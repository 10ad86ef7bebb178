output "function_name" {
  description = "Name of the Lambda function."
  value       = aws_lambda_function.this.function_name
}

output "function_arn" {
  description = "ARN of the Lambda function."
  value       = aws_lambda_function.this.arn
}

output "invoked_arn" {
  description = "ARN the schedule invokes: the alias 'live' of the latest published version with snap_start, else the function."
  value       = local.invoked_arn
}

output "job_name" {
  description = "The job's lock name (CLOUDLOCK_JOB_NAME): the key of its record in the lock store."
  value       = local.job_name
}

output "schedule_arn" {
  description = "ARN of the EventBridge Scheduler schedule."
  value       = aws_scheduler_schedule.this.arn
}

output "schedule_input" {
  description = "The input template the schedule sends (scheduledTime and jobName)."
  value       = local.schedule_input
}

output "dead_letter_queue_url" {
  description = "URL of the dead-letter queue of failed and undeliverable ticks."
  value       = aws_sqs_queue.dead_letters.url
}

output "log_group_name" {
  description = "CloudWatch log group of the function, where the guard logs each tick's outcome."
  value       = aws_cloudwatch_log_group.function.name
}

output "function_role_arn" {
  description = "ARN of the function's execution role."
  value       = aws_iam_role.function.arn
}
