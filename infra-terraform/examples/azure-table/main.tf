resource "azurerm_resource_group" "this" {
  name     = "${var.name}-rg"
  location = var.location
}

# No Cosmos DB account: the locks live in a table of the Function App's own storage account.
module "job" {
  source = "../../modules/azure-timer-function"

  resource_group_name  = azurerm_resource_group.this.name
  location             = var.location
  app_name             = "${var.name}-job"
  storage_account_name = "${var.name}host"
  package_zip          = var.package_zip
  timer_schedule       = var.timer_schedule
  table_lock_table     = "locks"
}
