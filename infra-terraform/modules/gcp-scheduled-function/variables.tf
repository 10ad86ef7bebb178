variable "project_id" {
  description = "Google Cloud project of the function, topic and scheduler job."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a Google Cloud project id (6 to 30 lowercase letters, digits and '-')."
  }
}

variable "region" {
  description = "Region of the function, topic trigger and scheduler job, e.g. europe-west1."
  type        = string

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]+$", var.region))
    error_message = "region is a Google Cloud region such as us-central1."
  }
}

variable "function_name" {
  description = "Name of the Cloud Function (2nd gen); also names the topic, scheduler job and service accounts."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,20}[a-z0-9]$", var.function_name))
    error_message = "Use 2 to 22 lowercase letters, digits and '-', starting with a letter (service account ids derived from it are limited to 30 characters)."
  }
}

variable "job_name" {
  description = "Lock name of the job (CLOUDLOCK_JOB_NAME). Null uses the scheduler job name, which is function_name."
  type        = string
  default     = null

  validation {
    condition     = try(var.job_name != "" && length(var.job_name) <= 1500 && !strcontains(var.job_name, "/"), var.job_name == null)
    error_message = "A job name is a Firestore document id: 1 to 1500 characters, no '/'."
  }
}

variable "schedule" {
  description = "Cloud Scheduler schedule in unix-cron format, e.g. \"*/5 * * * *\"; also the guard's CLOUDLOCK_SCHEDULE, so that it refuses a tick that is none of its occurrences and logs a missed one."
  type        = string

  validation {
    condition     = length(split(" ", trimspace(var.schedule))) == 5
    error_message = "schedule is a unix-cron expression with five fields."
  }
}

variable "time_zone" {
  description = "Time zone of the schedule (IANA name); also the guard's CLOUDLOCK_SCHEDULE_TIME_ZONE."
  type        = string
  default     = "Etc/UTC"
}

variable "source_bucket" {
  description = "Cloud Storage bucket holding the function's source archive."
  type        = string
}

variable "source_object" {
  description = "Object name of the function's source archive (a zip of the jar(s) with the cloudlock function guard)."
  type        = string
}

variable "entry_point" {
  description = "Fully qualified class of the function, e.g. com.example.NightlyReport."
  type        = string
}

variable "runtime" {
  description = "Java runtime of the function."
  type        = string
  default     = "java17"

  validation {
    condition     = contains(["java17", "java21", "java25"], var.runtime)
    error_message = "runtime must be java17, java21 or java25."
  }
}

variable "memory" {
  description = "Memory of the function, e.g. 512M."
  type        = string
  default     = "512M"

  validation {
    condition     = can(regex("^[0-9]+(M|Mi|G|Gi)$", var.memory))
    error_message = "memory is a quantity such as 256M, 512M or 1Gi."
  }
}

variable "timeout_seconds" {
  description = "Function timeout; the guard's lease follows it."
  type        = number
  default     = 60

  validation {
    condition     = var.timeout_seconds >= 1 && var.timeout_seconds <= 540
    error_message = "timeout_seconds is between 1 and 540 for event-driven functions."
  }
}

variable "retry_failed_ticks" {
  description = "Redeliver a tick whose invocation failed (Eventarc retries for up to 24 hours). The guard releases a failed tick without marking it done, so the retry runs it; duplicates of a completed tick are skipped."
  type        = bool
  default     = true
}

variable "firestore_collection" {
  description = "Collection of the lock documents (CLOUDLOCK_FIRESTORE_COLLECTION), e.g. module.lock.collection. Set this, datastore_kind or spanner_database."
  type        = string
  default     = null
}

variable "datastore_kind" {
  description = "Kind of the lock entities in a database in Datastore mode (CLOUDLOCK_DATASTORE_KIND), e.g. \"shedlock\"; the gcp-datastore-lock module grants the function access. Set this, firestore_collection or spanner_database."
  type        = string
  default     = null
}

variable "datastore_database" {
  description = "Id of the database in Datastore mode of datastore_kind (CLOUDLOCK_DATASTORE_DATABASE), e.g. module.lock.database."
  type        = string
  default     = "(default)"
}

variable "spanner_instance" {
  description = "Spanner instance of the lock database (CLOUDLOCK_SPANNER_INSTANCE), with spanner_database."
  type        = string
  default     = null
}

variable "spanner_database" {
  description = "Spanner database holding the lock table (CLOUDLOCK_SPANNER_DATABASE), in spanner_instance; the module grants the function roles/spanner.databaseUser on it. Set this or firestore_collection."
  type        = string
  default     = null
}

variable "spanner_table" {
  description = "The lock table in spanner_database (CLOUDLOCK_SPANNER_TABLE); create it with cloudlock init or the DDL of docs/stores/spanner.md."
  type        = string
  default     = "shedlock"
}

variable "environment" {
  description = "Additional environment variables of the function. The module sets CLOUDLOCK_STORE, CLOUDLOCK_FIRESTORE_COLLECTION and CLOUDLOCK_FIRESTORE_DATABASE (or CLOUDLOCK_DATASTORE_PROJECT, CLOUDLOCK_DATASTORE_DATABASE and CLOUDLOCK_DATASTORE_KIND, or CLOUDLOCK_SPANNER_PROJECT, CLOUDLOCK_SPANNER_INSTANCE, CLOUDLOCK_SPANNER_DATABASE and CLOUDLOCK_SPANNER_TABLE), CLOUDLOCK_JOB_NAME, CLOUDLOCK_TICK_RESOLUTION, CLOUDLOCK_FUNCTION_TIMEOUT, CLOUDLOCK_WHEN_BUSY, CLOUDLOCK_EVERY_OCCURRENCE, CLOUDLOCK_SCHEDULE and CLOUDLOCK_SCHEDULE_TIME_ZONE from its inputs."
  type        = map(string)
  default     = {}

  validation {
    condition     = length(setintersection(keys(var.environment), ["CLOUDLOCK_STORE", "CLOUDLOCK_FIRESTORE_COLLECTION", "CLOUDLOCK_FIRESTORE_DATABASE", "CLOUDLOCK_DATASTORE_PROJECT", "CLOUDLOCK_DATASTORE_DATABASE", "CLOUDLOCK_DATASTORE_KIND", "CLOUDLOCK_SPANNER_PROJECT", "CLOUDLOCK_SPANNER_INSTANCE", "CLOUDLOCK_SPANNER_DATABASE", "CLOUDLOCK_SPANNER_TABLE", "CLOUDLOCK_JOB_NAME", "CLOUDLOCK_TICK_RESOLUTION", "CLOUDLOCK_FUNCTION_TIMEOUT", "CLOUDLOCK_WHEN_BUSY", "CLOUDLOCK_EVERY_OCCURRENCE", "CLOUDLOCK_SCHEDULE", "CLOUDLOCK_SCHEDULE_TIME_ZONE"])) == 0
    error_message = "Set the module's own CLOUDLOCK_* variables through its inputs, not environment."
  }
}

variable "when_busy" {
  description = "How the guard answers a delivery that finds the job running (CLOUDLOCK_WHEN_BUSY): \"skip\" acknowledges the message (quiet metrics; if the running attempt then fails, only its own redelivery can still run the tick), \"retry\" fails the invocation so Pub/Sub redelivers the message (with its backoff, while the subscription keeps it) and the tick runs if the running attempt failed. Needs retry_failed_ticks = true."
  type        = string
  default     = "skip"

  validation {
    condition     = contains(["skip", "retry"], var.when_busy)
    error_message = "when_busy is \"skip\" or \"retry\"."
  }
}

variable "every_occurrence" {
  description = "How the guard remembers completed ticks (CLOUDLOCK_EVERY_OCCURRENCE): false keeps the job's watermark (a retry of an older tick that arrives after a newer tick completed is skipped as done, so that occurrence never runs); true records each occurrence in a record of its own, <job>@<tick>, in the same collection, so such a late retry still runs once. Costs two more writes per run and one record (a few hundred bytes) per occurrence, which expires after the guard's retention (CLOUDLOCK_OCCURRENCE_RETENTION, 7 days; set it in the environment to change it) where the lock module enables the store's expiry; a later delivery of its tick is refused. The job name may then have at most 230 characters."
  type        = bool
  default     = false
}

variable "tick_resolution" {
  description = "CLOUDLOCK_TICK_RESOLUTION: ISO-8601 duration the guard truncates scheduled times to, the grain of the schedule (PT1M for a schedule in minutes)."
  type        = string
  default     = "PT1M"

  validation {
    condition     = can(regex("^P(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$", var.tick_resolution)) && !can(regex("^P(T)?$", var.tick_resolution))
    error_message = "tick_resolution is an ISO-8601 duration such as PT1M, PT15M, PT1H or P1D."
  }
}

variable "firestore_database" {
  description = "Firestore database id of the lock collection (CLOUDLOCK_FIRESTORE_DATABASE), e.g. module.lock.database."
  type        = string
  default     = "(default)"
}

variable "max_instance_count" {
  description = "Most instances of the function at once; null keeps the platform's default. The lock keeps one tick to one run whatever the count."
  type        = number
  default     = null

  validation {
    condition     = var.max_instance_count == null ? true : var.max_instance_count >= 1 && floor(var.max_instance_count) == var.max_instance_count
    error_message = "max_instance_count is null or a whole number of at least 1."
  }
}

variable "vpc_connector" {
  description = "Serverless VPC Access connector of the function's egress, as projects/PROJECT/locations/REGION/connectors/NAME; null for none. Firestore must stay reachable through it (Private Google Access, or egress of private ranges only)."
  type        = string
  default     = null

  validation {
    condition     = var.vpc_connector == null ? true : can(regex("^projects/[^/]+/locations/[^/]+/connectors/[^/]+$", var.vpc_connector))
    error_message = "vpc_connector is projects/PROJECT/locations/REGION/connectors/NAME."
  }
}

variable "vpc_connector_egress_settings" {
  description = "Which egress goes through vpc_connector: \"PRIVATE_RANGES_ONLY\" or \"ALL_TRAFFIC\"; null keeps the platform's default (private ranges only). Only with vpc_connector."
  type        = string
  default     = null

  validation {
    condition     = var.vpc_connector_egress_settings == null ? true : contains(["PRIVATE_RANGES_ONLY", "ALL_TRAFFIC"], var.vpc_connector_egress_settings)
    error_message = "vpc_connector_egress_settings is null, \"PRIVATE_RANGES_ONLY\" or \"ALL_TRAFFIC\"."
  }
}
