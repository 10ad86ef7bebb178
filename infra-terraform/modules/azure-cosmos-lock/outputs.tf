output "endpoint" {
  description = "Account endpoint (CLOUDLOCK_COSMOS_ENDPOINT), for CosmosClientBuilder.endpoint(...) with a TokenCredential."
  value       = azurerm_cosmosdb_account.locks.endpoint
}

output "database_name" {
  description = "SQL database of the lock container (CLOUDLOCK_COSMOS_DATABASE)."
  value       = azurerm_cosmosdb_sql_database.locks.name
}

output "container_name" {
  description = "Lock container (CLOUDLOCK_COSMOS_CONTAINER)."
  value       = azurerm_cosmosdb_sql_container.locks.name
}

output "partition_key_path" {
  description = "Partition key path of the lock container."
  value       = one(azurerm_cosmosdb_sql_container.locks.partition_key_paths)
}

output "account_id" {
  description = "Resource id of the Cosmos DB account."
  value       = azurerm_cosmosdb_account.locks.id
}
