output "table_lock_table" {
  description = "The lock table in the Function App's storage account (CLOUDLOCK_AZURE_TABLE_TABLE)."
  value       = module.job.table_lock_table
}

output "storage_account_name" {
  description = "The Function App's storage account, which holds the lock table."
  value       = "${var.name}host"
}

output "function_app_name" {
  description = "The Function App with the guarded timer function."
  value       = module.job.function_app_name
}

output "job_name" {
  description = "Lock name of the job: its entity is in partition jobs of the lock table."
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
