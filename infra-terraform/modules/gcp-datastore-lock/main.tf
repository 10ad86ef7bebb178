resource "google_firestore_database" "locks" {
  count = var.create_database ? 1 : 0

  project                 = var.project_id
  name                    = var.database
  location_id             = var.location_id
  type                    = "DATASTORE_MODE"
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
  deletion_policy         = "ABANDON"
}

locals {
  database_resource_name = "projects/${var.project_id}/databases/${var.database}"
}

# roles/datastore.user is the narrowest predefined role with entity lookups, inserts, updates and key queries; the
# condition keeps it to the lock database. Kinds need no creation.
resource "google_project_iam_member" "lock_users" {
  for_each = var.lock_users

  project = var.project_id
  role    = "roles/datastore.user"
  member  = each.value

  condition {
    title       = "cloudlock-${replace(var.database, "/[()]/", "")}"
    description = "Datastore access for cloudlock, limited to one database."
    expression  = "resource.name == \"${local.database_resource_name}\""
  }

  depends_on = [google_firestore_database.locks]
}
