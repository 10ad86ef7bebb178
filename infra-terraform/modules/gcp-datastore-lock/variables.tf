variable "project_id" {
  description = "Google Cloud project of the database in Datastore mode."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a Google Cloud project id (6 to 30 lowercase letters, digits and '-')."
  }
}

variable "database" {
  description = "Id of the database in Datastore mode; \"(default)\" is the project's default database."
  type        = string
  default     = "(default)"

  validation {
    condition     = var.database == "(default)" || can(regex("^[a-z][a-z0-9-]{2,61}[a-z0-9]$", var.database))
    error_message = "database is \"(default)\" or 4 to 63 lowercase letters, digits and '-', starting with a letter."
  }
}

variable "create_database" {
  description = "Create the database (Firestore in Datastore mode). Leave false to use a database that already exists."
  type        = bool
  default     = false
}

variable "location_id" {
  description = "Location of a database this module creates, e.g. a region or the multi-region nam5 / eur3. Ignored when create_database is false."
  type        = string
  default     = null

  validation {
    condition     = var.location_id == null || can(regex("^[a-z0-9-]+$", var.location_id))
    error_message = "location_id is a Firestore location id such as nam5, eur3 or a region name."
  }
}

variable "lock_users" {
  description = "IAM members that take locks, keyed by a name known at plan time, e.g. { job = \"serviceAccount:job@my-project.iam.gserviceaccount.com\" }. Each gets roles/datastore.user, conditioned on this database."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for m in values(var.lock_users) : can(regex("^(serviceAccount|user|group|principal|principalSet):", m))])
    error_message = "Each lock user is an IAM member such as serviceAccount:NAME@PROJECT.iam.gserviceaccount.com."
  }
}
