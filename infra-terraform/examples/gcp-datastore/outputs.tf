output "function_name" {
  description = "The guarded Cloud Function."
  value       = module.job.function_name
}

output "job_name" {
  description = "Lock name of the job: the key name of its entity of the kind shedlock."
  value       = module.job.job_name
}

output "scheduler_job_name" {
  description = "The Cloud Scheduler job; `gcloud scheduler jobs run` fires a tick now."
  value       = module.job.scheduler_job_name
}

output "function_service_account" {
  description = "Service account the function runs as (roles/datastore.user, conditioned on the lock database)."
  value       = module.job.service_account_email
}
