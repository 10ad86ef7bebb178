module "lock_bucket" {
  source = "../../modules/aws-s3-lock-bucket"

  bucket_name = var.bucket_name
  # The example is meant to be torn down again.
  force_destroy = true
}

module "job" {
  source = "../../modules/aws-scheduled-lambda"

  function_name           = var.name
  package_file            = var.package_file
  handler                 = var.handler
  schedule_expression     = var.schedule_expression
  tick_resolution         = "PT1M"
  store                   = "s3"
  lock_bucket_name        = module.lock_bucket.bucket_name
  lock_key_prefix         = module.lock_bucket.key_prefix
  lock_access_policy_json = module.lock_bucket.lock_access_policy_json
}
