output "project_id" {
  description = "Project of the lock database."
  value       = var.project_id
}

output "database" {
  description = "Firestore database id, for FirestoreOptions.setDatabaseId(...) when it is not \"(default)\"."
  value       = var.database
}

output "collection" {
  description = "Collection of the lock documents (CLOUDLOCK_FIRESTORE_COLLECTION for the function guard)."
  value       = var.collection
}
