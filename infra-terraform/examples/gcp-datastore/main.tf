resource "google_storage_bucket" "source" {
  name                        = var.source_bucket_name
  location                    = var.region
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"
  force_destroy               = true
}

resource "google_storage_bucket_object" "source" {
  name   = "${var.name}-${filemd5(var.source_zip)}.zip"
  bucket = google_storage_bucket.source.name
  source = var.source_zip
}

module "lock" {
  source = "../../modules/gcp-datastore-lock"

  project_id      = var.project_id
  database        = var.datastore_database
  create_database = var.create_datastore_database
  location_id     = var.datastore_location
  lock_users = {
    job = module.job.service_account_member
  }
}

module "job" {
  source = "../../modules/gcp-scheduled-function"

  project_id         = var.project_id
  region             = var.region
  function_name      = var.name
  schedule           = var.schedule
  source_bucket      = google_storage_bucket.source.name
  source_object      = google_storage_bucket_object.source.name
  entry_point        = var.entry_point
  datastore_kind     = "shedlock"
  datastore_database = module.lock.database
}
