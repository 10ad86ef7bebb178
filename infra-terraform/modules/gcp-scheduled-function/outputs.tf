output "function_name" {
  description = "Name of the Cloud Function."
  value       = google_cloudfunctions2_function.this.name
}

output "job_name" {
  description = "The job's lock name (CLOUDLOCK_JOB_NAME): the id of its document in the lock collection."
  value       = local.job_name
}

output "service_account_email" {
  description = "Service account the function runs as; give it to the Firestore lock module's lock_users."
  value       = google_service_account.function.email
}

output "service_account_member" {
  description = "The function's service account as an IAM member (serviceAccount:...)."
  value       = google_service_account.function.member
}

output "scheduler_job_name" {
  description = "Name of the Cloud Scheduler job (run it now with `gcloud scheduler jobs run`)."
  value       = google_cloud_scheduler_job.this.name
}

output "topic_id" {
  description = "Pub/Sub topic the scheduler publishes each tick to."
  value       = google_pubsub_topic.ticks.id
}
