resource "azurerm_resource_group" "this" {
  name     = "${var.name}-rg"
  location = var.location
}

module "lock" {
  source = "../../modules/azure-cosmos-lock"

  resource_group_name = azurerm_resource_group.this.name
  location            = var.location
  account_name        = "${var.name}-locks"
  lock_user_principal_ids = {
    job = module.job.principal_id
  }
}

module "job" {
  source = "../../modules/azure-timer-function"

  resource_group_name  = azurerm_resource_group.this.name
  location             = var.location
  app_name             = "${var.name}-job"
  storage_account_name = "${var.name}host"
  package_zip          = var.package_zip
  timer_schedule       = var.timer_schedule
  cosmos_endpoint      = module.lock.endpoint
  cosmos_database      = module.lock.database_name
  cosmos_container     = module.lock.container_name
}
