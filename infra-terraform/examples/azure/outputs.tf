output "cosmos_endpoint" {
  description = "Cosmos DB account endpoint (CLOUDLOCK_COSMOS_ENDPOINT)."
  value       = module.lock.endpoint
}

output "cosmos_database" {
  description = "Database of the lock container (CLOUDLOCK_COSMOS_DATABASE)."
  value       = module.lock.database_name
}

output "cosmos_container" {
  description = "The lock container (CLOUDLOCK_COSMOS_CONTAINER), partitioned by /id."
  value       = module.lock.container_name
}

output "function_app_name" {
  description = "The Function App with the guarded timer function."
  value       = module.job.function_app_name
}

output "job_name" {
  description = "Lock name of the job: the id of its lock item."
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
