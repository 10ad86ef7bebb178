resource "google_firestore_database" "locks" {
  count = var.create_database ? 1 : 0

  project                 = var.project_id
  name                    = var.database
  location_id             = var.location_id
  type                    = "FIRESTORE_NATIVE"
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
  deletion_policy         = "ABANDON"
}

# The TTL policy on expiresAt, the timestamp only occurrence records (<job>@<tick>) carry: Firestore deletes them
# after it. Job documents have no such field and never expire (a deleted one would restart its fencing token).
resource "google_firestore_field" "occurrence_expiry" {
  project    = var.project_id
  database   = var.database
  collection = var.collection
  field      = "expiresAt"

  ttl_config {}

  # no single-field indexes on it: nothing queries it, and an index on an ever-growing timestamp is a write hotspot
  index_config {}

  depends_on = [google_firestore_database.locks]
}

locals {
  database_resource_name = "projects/${var.project_id}/databases/${var.database}"
}

# roles/datastore.user is the narrowest predefined role with document read and write; the condition keeps it
# to the lock database.
resource "google_project_iam_member" "lock_users" {
  for_each = var.lock_users

  project = var.project_id
  role    = "roles/datastore.user"
  member  = each.value

  condition {
    title       = "cloudlock-${replace(var.database, "/[()]/", "")}"
    description = "Firestore access for cloudlock, limited to one database."
    expression  = "resource.name == \"${local.database_resource_name}\""
  }

  depends_on = [google_firestore_database.locks]
}
