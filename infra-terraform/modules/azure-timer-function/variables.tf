variable "resource_group_name" {
  description = "Resource group of the Function App and its storage, plan and Application Insights."
  type        = string
}

variable "location" {
  description = "Azure region, e.g. westeurope."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9]+$", var.location))
    error_message = "location is an Azure region name such as westeurope (lowercase, no spaces)."
  }
}

variable "app_name" {
  description = "Name of the Function App (globally unique); also names its plan and Application Insights."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,50}[a-z0-9]$", var.app_name))
    error_message = "app_name has 2 to 52 lowercase letters, digits and '-'."
  }
}

variable "storage_account_name" {
  description = "Name of the Function App's host storage account (globally unique; not the lock store)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9]{3,24}$", var.storage_account_name))
    error_message = "A storage account name has 3 to 24 lowercase letters and digits."
  }
}

variable "package_zip" {
  description = "Path of the Function App package (the zip the azure-functions Maven plugin builds, with the timer function and the cloudlock guard)."
  type        = string
}

variable "timer_schedule" {
  description = "NCRONTAB schedule of the timer (six fields, seconds first), set as app setting CLOUDLOCK_TIMER_SCHEDULE; the function's @TimerTrigger uses schedule = \"%CLOUDLOCK_TIMER_SCHEDULE%\". Also the guard's CLOUDLOCK_SCHEDULE, so that it refuses an invocation that is none of its occurrences and logs a missed one (in UTC: with WEBSITE_TIME_ZONE or TZ in app_settings, set CLOUDLOCK_SCHEDULE_TIME_ZONE to the same zone there)."
  type        = string

  validation {
    condition     = length(split(" ", trimspace(var.timer_schedule))) == 6
    error_message = "timer_schedule is an NCRONTAB expression with six fields, e.g. \"0 */5 * * * *\"."
  }
}

variable "job_name" {
  description = "Lock name of the job (CLOUDLOCK_JOB_NAME). Null uses app_name."
  type        = string
  default     = null

  validation {
    condition     = try(var.job_name != "" && length(var.job_name) <= 255 && !can(regex("[/\\\\?#]", var.job_name)), var.job_name == null)
    error_message = "A job name is a Cosmos DB id: 1 to 255 characters, no '/', '\\', '?' or '#'."
  }
}

variable "java_version" {
  description = "Java version of the Function App."
  type        = string
  default     = "17"

  validation {
    condition     = contains(["17", "21"], var.java_version)
    error_message = "java_version must be 17 or 21."
  }
}

variable "cosmos_endpoint" {
  description = "Cosmos DB account endpoint (CLOUDLOCK_COSMOS_ENDPOINT), e.g. module.lock.endpoint; null when blob_lock_container is set."
  type        = string
  default     = null

  validation {
    condition     = var.cosmos_endpoint == null ? true : startswith(var.cosmos_endpoint, "https://")
    error_message = "cosmos_endpoint is an https:// URL."
  }
}

variable "cosmos_database" {
  description = "Cosmos DB database (CLOUDLOCK_COSMOS_DATABASE), e.g. module.lock.database_name."
  type        = string
  default     = null
}

variable "cosmos_container" {
  description = "Cosmos DB lock container (CLOUDLOCK_COSMOS_CONTAINER), e.g. module.lock.container_name."
  type        = string
  default     = null
}

variable "blob_lock_container" {
  description = "Instead of Cosmos DB: a Blob Storage container for the locks, created in the app's own storage account (CLOUDLOCK_AZURE_BLOB_CONTAINER, reached at CLOUDLOCK_AZURE_BLOB_ENDPOINT with the app's identity, which gets Storage Blob Data Contributor on that container only). Null: Cosmos DB."
  type        = string
  default     = null

  validation {
    condition     = var.blob_lock_container == null ? true : can(regex("^[a-z0-9](?:[a-z0-9]|-[a-z0-9]){2,62}$", var.blob_lock_container))
    error_message = "A container name has 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit."
  }
}

variable "table_lock_table" {
  description = "Instead of Cosmos DB: a Table Storage table for the locks, created in the app's own storage account (CLOUDLOCK_AZURE_TABLE_TABLE, reached at CLOUDLOCK_AZURE_TABLE_ENDPOINT with the app's identity, which gets Storage Table Data Contributor on that table only). Null: Cosmos DB. Table Storage has no expiry: with every_occurrence, occurrence records stay until someone deletes them."
  type        = string
  default     = null

  validation {
    condition     = var.table_lock_table == null ? true : can(regex("^[A-Za-z][A-Za-z0-9]{2,62}$", var.table_lock_table))
    error_message = "A table name has 3 to 63 letters and digits, starting with a letter."
  }
}

variable "log_retention_days" {
  description = "Retention of the Log Analytics workspace behind Application Insights, in days."
  type        = number
  default     = 30

  validation {
    condition     = var.log_retention_days >= 30 && var.log_retention_days <= 730
    error_message = "log_retention_days is between 30 and 730."
  }
}

variable "app_settings" {
  description = "Additional app settings. The module sets CLOUDLOCK_STORE (cosmos, azure-blob or azure-table), CLOUDLOCK_COSMOS_ENDPOINT, CLOUDLOCK_COSMOS_DATABASE, CLOUDLOCK_COSMOS_CONTAINER (or CLOUDLOCK_AZURE_BLOB_ENDPOINT and CLOUDLOCK_AZURE_BLOB_CONTAINER, or CLOUDLOCK_AZURE_TABLE_ENDPOINT and CLOUDLOCK_AZURE_TABLE_TABLE), CLOUDLOCK_JOB_NAME, CLOUDLOCK_TIMER_SCHEDULE, CLOUDLOCK_SCHEDULE, CLOUDLOCK_TICK_RESOLUTION, CLOUDLOCK_FUNCTION_TIMEOUT, AzureFunctionsJobHost__functionTimeout, CLOUDLOCK_WHEN_BUSY and CLOUDLOCK_EVERY_OCCURRENCE from its inputs."
  type        = map(string)
  default     = {}

  validation {
    condition     = length(setintersection(keys(var.app_settings), ["CLOUDLOCK_STORE", "CLOUDLOCK_COSMOS_ENDPOINT", "CLOUDLOCK_COSMOS_DATABASE", "CLOUDLOCK_COSMOS_CONTAINER", "CLOUDLOCK_AZURE_BLOB_ENDPOINT", "CLOUDLOCK_AZURE_BLOB_CONTAINER", "CLOUDLOCK_JOB_NAME", "CLOUDLOCK_TIMER_SCHEDULE", "CLOUDLOCK_SCHEDULE", "CLOUDLOCK_TICK_RESOLUTION", "CLOUDLOCK_FUNCTION_TIMEOUT", "AzureFunctionsJobHost__functionTimeout", "CLOUDLOCK_WHEN_BUSY", "CLOUDLOCK_EVERY_OCCURRENCE"])) == 0
    error_message = "Set the module's own CLOUDLOCK_* variables through its inputs, not app_settings."
  }
}

variable "tags" {
  description = "Tags for every resource the module creates."
  type        = map(string)
  default     = {}
}

variable "when_busy" {
  description = "How the guard answers an invocation that finds the job running (CLOUDLOCK_WHEN_BUSY): \"skip\" returns normally, \"retry\" throws so the function's retry policy re-invokes it with the same timer data (the policy is part of the function's code: @FixedDelayRetry or @ExponentialBackoffRetry on the timer method; without one the invocation is not retried)."
  type        = string
  default     = "skip"

  validation {
    condition     = contains(["skip", "retry"], var.when_busy)
    error_message = "when_busy is \"skip\" or \"retry\"."
  }
}

variable "occurrence_expiration_days" {
  description = "With blob_lock_container: days after its last write an occurrence record (under shedlock/occurrences/) is deleted by the host account's lifecycle management policy, at least one more than the guard's CLOUDLOCK_OCCURRENCE_RETENTION in days (7 by default). Job records are never deleted. (With Cosmos DB the records' own ttl expires them, given the container's default_ttl = -1.)"
  type        = number
  default     = 8

  validation {
    condition     = var.occurrence_expiration_days >= 2 && floor(var.occurrence_expiration_days) == var.occurrence_expiration_days
    error_message = "occurrence_expiration_days is a whole number of days, at least 2 (the retention, at least a day, plus one)."
  }
}

variable "every_occurrence" {
  description = "How the guard remembers completed ticks (CLOUDLOCK_EVERY_OCCURRENCE): false keeps the job's watermark (a retry of an older tick that arrives after a newer tick completed is skipped as done, so that occurrence never runs); true records each occurrence in a record of its own, <job>@<tick>, in the same container, so such a late retry still runs once. Costs two more writes per run and one record (a few hundred bytes) per occurrence, which expires after the guard's retention (CLOUDLOCK_OCCURRENCE_RETENTION, 7 days; set it in the environment to change it) where the lock module enables the store's expiry; a later delivery of its tick is refused. The job name may then have at most 230 characters."
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

variable "function_timeout_minutes" {
  description = "The functions' timeout in minutes (1 to 10 on the Consumption plan, whose default is 5): set as the host's functionTimeout (AzureFunctionsJobHost__functionTimeout) and as the guard's lease base (CLOUDLOCK_FUNCTION_TIMEOUT), so the two agree."
  type        = number
  default     = 5

  validation {
    condition     = var.function_timeout_minutes >= 1 && var.function_timeout_minutes <= 10
    error_message = "function_timeout_minutes is 1 to 10 on the Consumption plan (Y1)."
  }
}

variable "app_scale_limit" {
  description = "Most instances the app scales out to (site_config's app_scale_limit, functionAppScaleLimit); null keeps the plan's limit. The lock keeps one tick to one run whatever the count. The Consumption plan has no VNet integration, so the module has no VNet input."
  type        = number
  default     = null

  validation {
    condition     = var.app_scale_limit == null ? true : var.app_scale_limit >= 1 && floor(var.app_scale_limit) == var.app_scale_limit
    error_message = "app_scale_limit is null or a whole number of at least 1."
  }
}
