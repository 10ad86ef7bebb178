output "project_id" {
  description = "Project of the lock database."
  value       = var.project_id
}

output "database" {
  description = "Id of the database in Datastore mode (CLOUDLOCK_DATASTORE_DATABASE for the function guard, DatastoreOptions.setDatabaseId(...) when it is not \"(default)\")."
  value       = var.database
}
