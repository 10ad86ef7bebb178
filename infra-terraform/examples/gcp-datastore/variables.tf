variable "project_id" {
  description = "Google Cloud project to deploy to."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a Google Cloud project id."
  }
}

variable "region" {
  description = "Region of the function and scheduler job, e.g. europe-west1."
  type        = string
}

variable "name" {
  description = "Name of the function and its scheduler job; with the default job name, also the lock name."
  type        = string
  default     = "cloudlock-demo"
}

variable "datastore_database" {
  description = "The database in Datastore mode holding the lock entities; \"(default)\" is the project's default database."
  type        = string
  default     = "(default)"
}

variable "create_datastore_database" {
  description = "Create the database in Datastore mode (true for a new project); false uses one that exists."
  type        = bool
  default     = false
}

variable "datastore_location" {
  description = "Location of a database this example creates, e.g. nam5 or europe-west1."
  type        = string
  default     = null
}

variable "source_bucket_name" {
  description = "Name of a new Cloud Storage bucket for the function's source archive (globally unique)."
  type        = string
}

variable "source_zip" {
  description = "Path of the function's source archive (zip of the jar(s) with the cloudlock function guard)."
  type        = string

  validation {
    condition     = endswith(var.source_zip, ".zip")
    error_message = "source_zip is a .zip archive."
  }
}

variable "entry_point" {
  description = "Fully qualified class of the function, e.g. com.example.DemoJob."
  type        = string
}

variable "schedule" {
  description = "unix-cron schedule of the job."
  type        = string
  default     = "* * * * *"
}
