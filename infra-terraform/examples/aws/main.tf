module "lock_table" {
  source = "../../modules/aws-dynamodb-lock-table"

  table_name = var.table_name
  # The example is meant to be torn down again.
  deletion_protection = false
}

module "job" {
  source = "../../modules/aws-scheduled-lambda"

  function_name           = var.name
  package_file            = var.package_file
  handler                 = var.handler
  schedule_expression     = var.schedule_expression
  tick_resolution         = "PT1M"
  lock_table_name         = module.lock_table.table_name
  lock_access_policy_json = module.lock_table.lock_access_policy_json
}
