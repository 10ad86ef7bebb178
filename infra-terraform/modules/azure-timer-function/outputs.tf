output "function_app_name" {
  description = "Name of the Function App."
  value       = azurerm_linux_function_app.this.name
}

output "principal_id" {
  description = "Principal id of the Function App's managed identity; give it to the Cosmos lock module's lock_user_principal_ids."
  value       = azurerm_linux_function_app.this.identity[0].principal_id
}

output "job_name" {
  description = "The job's lock name (CLOUDLOCK_JOB_NAME): the id of its item in the lock container, its blob's name after the prefix shedlock/, or its entity's row key (encoded as blob names are) in partition jobs."
  value       = local.job_name
}

output "application_insights_name" {
  description = "Application Insights resource receiving the function's logs."
  value       = azurerm_application_insights.this.name
}

output "blob_lock_container" {
  description = "The Blob Storage lock container in the app's storage account, or null when the locks are elsewhere."
  value       = var.blob_lock_container
}

output "table_lock_table" {
  description = "The Table Storage lock table in the app's storage account, or null when the locks are elsewhere."
  value       = var.table_lock_table
}
