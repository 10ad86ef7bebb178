output "blob_lock_container" {
  description = "The lock container in the Function App's storage account (CLOUDLOCK_AZURE_BLOB_CONTAINER)."
  value       = module.job.blob_lock_container
}

output "storage_account_name" {
  description = "The Function App's storage account, which holds the lock container."
  value       = "${var.name}host"
}

output "function_app_name" {
  description = "The Function App with the guarded timer function."
  value       = module.job.function_app_name
}

output "job_name" {
  description = "Lock name of the job: its blob is shedlock/<job_name> in the lock container."
  value       = module.job.job_name
}

output "application_insights_name" {
  description = "Application Insights with the function's logs."
  value       = module.job.application_insights_name
}

output "resource_group_name" {
  description = "Resource group of everything the example creates."
  value       = azurerm_resource_group.this.name
}
