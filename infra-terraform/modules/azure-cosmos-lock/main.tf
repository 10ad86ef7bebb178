# Serverless, one region, keys turned off: clients authenticate with Entra ID and the role assignment below.
resource "azurerm_cosmosdb_account" "locks" {
  name                          = var.account_name
  resource_group_name           = var.resource_group_name
  location                      = var.location
  offer_type                    = "Standard"
  kind                          = "GlobalDocumentDB"
  local_authentication_disabled = true
  tags                          = var.tags

  capabilities {
    name = "EnableServerless"
  }

  consistency_policy {
    consistency_level = var.consistency_level
  }

  geo_location {
    location          = var.location
    failover_priority = 0
  }
}

resource "azurerm_cosmosdb_sql_database" "locks" {
  name                = var.database_name
  resource_group_name = var.resource_group_name
  account_name        = azurerm_cosmosdb_account.locks.name
}

# Partitioned by the lock record's id, as the provider expects. No default TTL: an expired record would restart
# its fencing token.
resource "azurerm_cosmosdb_sql_container" "locks" {
  name                = var.container_name
  resource_group_name = var.resource_group_name
  account_name        = azurerm_cosmosdb_account.locks.name
  database_name       = azurerm_cosmosdb_sql_database.locks.name
  partition_key_paths = ["/id"]
  # -1: TTL on without a default, so only items with their own ttl expire: occurrence records. A job's item has none
  # and never expires (a deleted item would restart its fencing token at 1).
  default_ttl = -1
}

# Data-plane RBAC: the built-in Data Contributor role (00000000-0000-0000-0000-000000000002), scoped to the lock
# container.
resource "azurerm_cosmosdb_sql_role_assignment" "lock_users" {
  for_each = var.lock_user_principal_ids

  resource_group_name = var.resource_group_name
  account_name        = azurerm_cosmosdb_account.locks.name
  role_definition_id  = "${azurerm_cosmosdb_account.locks.id}/sqlRoleDefinitions/00000000-0000-0000-0000-000000000002"
  scope               = "${azurerm_cosmosdb_account.locks.id}/dbs/${azurerm_cosmosdb_sql_database.locks.name}/colls/${azurerm_cosmosdb_sql_container.locks.name}"
  principal_id        = each.value
}
