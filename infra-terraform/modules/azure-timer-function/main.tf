locals {
  job_name = coalesce(var.job_name, var.app_name)
  # the store the locks live in: Cosmos DB, or a container or a table of the host's storage account
  store = var.blob_lock_container != null ? "azure-blob" : var.table_lock_table != null ? "azure-table" : "cosmos"
}

# Host storage of the Functions runtime (timer schedule status, leases). The locks live in Cosmos DB, or, with
# blob_lock_container or table_lock_table set, in a container or a table of this account that the app reaches with
# its identity.
resource "azurerm_storage_account" "host" {
  name                            = var.storage_account_name
  resource_group_name             = var.resource_group_name
  location                        = var.location
  account_tier                    = "Standard"
  account_replication_type        = "LRS"
  min_tls_version                 = "TLS1_2"
  allow_nested_items_to_be_public = false
  tags                            = var.tags
}

# The lock container (only with blob_lock_container): the locks in the account the app already has.
resource "azurerm_storage_container" "locks" {
  count                 = var.blob_lock_container == null ? 0 : 1
  name                  = var.blob_lock_container
  storage_account_id    = azurerm_storage_account.host.id
  container_access_type = "private"
}

# Occurrence records (<job>@<tick>, with every occurrence recorded) are kept under the guard's prefix plus
# occurrences/, which no job's blob can start with: this rule deletes them and nothing else, a day more than the
# guard's retention (CLOUDLOCK_OCCURRENCE_RETENTION). The module owns the host account, so this is its one management
# policy (an account has one; add rules here rather than in another policy).
resource "azurerm_storage_management_policy" "occurrence_records" {
  count              = var.blob_lock_container == null ? 0 : 1
  storage_account_id = azurerm_storage_account.host.id

  rule {
    name    = "cloudlock-occurrence-records"
    enabled = true

    filters {
      blob_types   = ["blockBlob"]
      prefix_match = ["${var.blob_lock_container}/shedlock/occurrences/"]
    }

    actions {
      base_blob {
        delete_after_days_since_modification_greater_than = var.occurrence_expiration_days
      }
    }
  }
}

# Least privilege for the locks: read and write blobs in the lock container only, with the app's identity. (The
# host's own storage key stays the host's: the guard reaches the locks through CLOUDLOCK_AZURE_BLOB_ENDPOINT and Entra ID.)
resource "azurerm_role_assignment" "locks" {
  count                = var.blob_lock_container == null ? 0 : 1
  scope                = azurerm_storage_container.locks[0].id
  role_definition_name = "Storage Blob Data Contributor"
  principal_id         = azurerm_linux_function_app.this.identity[0].principal_id
}

# The lock table (only with table_lock_table). Table Storage has no expiry rule: occurrence records stay until deleted.
resource "azurerm_storage_table" "locks" {
  count                = var.table_lock_table == null ? 0 : 1
  name                 = var.table_lock_table
  storage_account_name = azurerm_storage_account.host.name
}

# Least privilege for the locks in a table: read, add and update entities of the lock table only, with the app's
# identity (the scope is the table's Resource Manager id).
resource "azurerm_role_assignment" "lock_table" {
  count                = var.table_lock_table == null ? 0 : 1
  scope                = "${azurerm_storage_account.host.id}/tableServices/default/tables/${azurerm_storage_table.locks[0].name}"
  role_definition_name = "Storage Table Data Contributor"
  principal_id         = azurerm_linux_function_app.this.identity[0].principal_id
}

resource "azurerm_log_analytics_workspace" "this" {
  name                = "${var.app_name}-logs"
  resource_group_name = var.resource_group_name
  location            = var.location
  sku                 = "PerGB2018"
  retention_in_days   = var.log_retention_days
  tags                = var.tags
}

resource "azurerm_application_insights" "this" {
  name                = "${var.app_name}-ai"
  resource_group_name = var.resource_group_name
  location            = var.location
  workspace_id        = azurerm_log_analytics_workspace.this.id
  application_type    = "java"
  tags                = var.tags
}

resource "azurerm_service_plan" "this" {
  name                = "${var.app_name}-plan"
  resource_group_name = var.resource_group_name
  location            = var.location
  os_type             = "Linux"
  sku_name            = "Y1"
  tags                = var.tags
}

resource "azurerm_linux_function_app" "this" {
  name                       = var.app_name
  resource_group_name        = var.resource_group_name
  location                   = var.location
  service_plan_id            = azurerm_service_plan.this.id
  storage_account_name       = azurerm_storage_account.host.name
  storage_account_access_key = azurerm_storage_account.host.primary_access_key
  https_only                 = true
  zip_deploy_file            = var.package_zip
  tags                       = var.tags

  identity {
    type = "SystemAssigned"
  }

  site_config {
    application_insights_connection_string = azurerm_application_insights.this.connection_string
    app_scale_limit                        = var.app_scale_limit

    application_stack {
      java_version = var.java_version
    }
  }

  app_settings = merge(var.app_settings, {
    CLOUDLOCK_JOB_NAME        = local.job_name
    CLOUDLOCK_TIMER_SCHEDULE  = var.timer_schedule
    CLOUDLOCK_SCHEDULE        = var.timer_schedule
    CLOUDLOCK_TICK_RESOLUTION = var.tick_resolution
    # one timeout for the host and the guard's lease (host.json's functionTimeout, overridden by this setting)
    AzureFunctionsJobHost__functionTimeout = format("00:%02d:00", var.function_timeout_minutes)
    CLOUDLOCK_FUNCTION_TIMEOUT             = "PT${var.function_timeout_minutes}M"
    CLOUDLOCK_WHEN_BUSY                    = var.when_busy
    CLOUDLOCK_EVERY_OCCURRENCE             = var.every_occurrence ? "true" : "false"
    CLOUDLOCK_STORE                        = local.store
    }, {
    cosmos = {
      CLOUDLOCK_COSMOS_ENDPOINT  = var.cosmos_endpoint
      CLOUDLOCK_COSMOS_DATABASE  = var.cosmos_database
      CLOUDLOCK_COSMOS_CONTAINER = var.cosmos_container
    }
    azure-blob = {
      CLOUDLOCK_AZURE_BLOB_ENDPOINT  = azurerm_storage_account.host.primary_blob_endpoint
      CLOUDLOCK_AZURE_BLOB_CONTAINER = var.blob_lock_container
    }
    azure-table = {
      CLOUDLOCK_AZURE_TABLE_ENDPOINT = azurerm_storage_account.host.primary_table_endpoint
      CLOUDLOCK_AZURE_TABLE_TABLE    = var.table_lock_table
    }
  }[local.store])

  lifecycle {
    precondition {
      condition     = length(compact([var.cosmos_endpoint, var.blob_lock_container, var.table_lock_table])) == 1
      error_message = "Set one of cosmos_endpoint (locks in Cosmos DB), blob_lock_container (in a container of the app's storage account) or table_lock_table (in a table of it), not more."
    }
  }
}
