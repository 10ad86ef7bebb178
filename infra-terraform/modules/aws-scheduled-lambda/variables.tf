variable "function_name" {
  description = "Name of the Lambda function; also names its schedule, roles, log group and dead-letter queue."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9_-]{1,56}$", var.function_name))
    error_message = "Use 1 to 56 letters, digits, '-' or '_' (names derived from it get suffixes of up to 8 characters)."
  }
}

variable "job_name" {
  description = "Lock name of the job (CLOUDLOCK_JOB_NAME and the schedule input's jobName). Null uses the schedule name, which is function_name."
  type        = string
  default     = null

  validation {
    condition     = try(var.job_name != "" && length(var.job_name) <= 255 && trimspace(var.job_name) == var.job_name, var.job_name == null)
    error_message = "A job name has 1 to 255 characters and no leading or trailing whitespace."
  }
}

variable "package_file" {
  description = "Path of the deployment package (the shaded jar or zip of the function with the cloudlock Lambda guard). Set either this or s3_bucket and s3_key."
  type        = string
  default     = null
}

variable "s3_bucket" {
  description = "Instead of package_file: S3 bucket of the deployment package, in the function's region. Needs s3_key."
  type        = string
  default     = null
}

variable "s3_key" {
  description = "Object key of the deployment package in s3_bucket."
  type        = string
  default     = null
}

variable "s3_object_version" {
  description = "Version of the package object in a versioned s3_bucket; null takes the current object when the function is created or its code changes."
  type        = string
  default     = null
}

variable "architectures" {
  description = "Instruction set of the function: [\"x86_64\"] or [\"arm64\"] (Graviton). The package's native code, if any, must match."
  type        = list(string)
  default     = ["x86_64"]

  validation {
    condition     = length(var.architectures) == 1 && contains(["x86_64", "arm64"], var.architectures[0])
    error_message = "architectures is [\"x86_64\"] or [\"arm64\"]."
  }
}

variable "reserved_concurrent_executions" {
  description = "Concurrency reserved for the function; -1 (the default) leaves it unreserved, 0 stops every invocation. The lock keeps one tick to one run whatever the concurrency."
  type        = number
  default     = -1

  validation {
    condition     = var.reserved_concurrent_executions >= -1 && floor(var.reserved_concurrent_executions) == var.reserved_concurrent_executions
    error_message = "reserved_concurrent_executions is -1 (unreserved), 0 or a positive whole number."
  }
}

variable "tracing_mode" {
  description = "AWS X-Ray tracing: null (no tracing configuration), \"PassThrough\" or \"Active\". With Active the function's role may also send trace segments to X-Ray."
  type        = string
  default     = null

  validation {
    condition     = var.tracing_mode == null ? true : contains(["PassThrough", "Active"], var.tracing_mode)
    error_message = "tracing_mode is null, \"PassThrough\" or \"Active\"."
  }
}

variable "vpc_subnet_ids" {
  description = "Subnets the function runs in; empty (the default) for no VPC. With subnets, set vpc_security_group_ids too: the function's role then may manage the function's network interfaces, and the lock store (DynamoDB or S3) must be reachable from the subnets (a gateway endpoint or a NAT)."
  type        = list(string)
  default     = []
}

variable "vpc_security_group_ids" {
  description = "Security groups of the function's network interfaces in vpc_subnet_ids; empty (the default) for no VPC."
  type        = list(string)
  default     = []
}

variable "handler" {
  description = "Handler of the function, e.g. com.example.NightlyReport::handleRequest."
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

variable "memory_size" {
  description = "Memory of the function in MB."
  type        = number
  default     = 512

  validation {
    condition     = var.memory_size >= 128 && var.memory_size <= 10240
    error_message = "memory_size is between 128 and 10240 MB."
  }
}

variable "timeout_seconds" {
  description = "Function timeout. The guard's lease follows the remaining time of the invocation, so this bounds how long a tick's lock is held."
  type        = number
  default     = 60

  validation {
    condition     = var.timeout_seconds >= 1 && var.timeout_seconds <= 900
    error_message = "timeout_seconds is between 1 and 900."
  }
}

variable "snap_start" {
  description = "Lambda SnapStart: the module publishes a version on every change (Lambda runs its init phase, where the guard primes its store client with one real request, and snapshots it) and the schedule invokes the alias 'live' of the latest version. A cold start then restores the snapshot instead of starting a JVM."
  type        = bool
  default     = false
}

variable "java_tool_options" {
  description = "JAVA_TOOL_OPTIONS of the function. The default stops the JIT at its first tier, which shortens a JVM's start-up (the choice for a short scheduled job; a long CPU-bound job may do better with null, the JVM's default). Null or empty leaves the variable unset."
  type        = string
  default     = "-XX:+TieredCompilation -XX:TieredStopAtLevel=1"
}

variable "schedule_expression" {
  description = "EventBridge Scheduler expression: rate(...), cron(...) or at(...); also the guard's CLOUDLOCK_SCHEDULE, so that it refuses a tick that is none of its occurrences and logs a missed one."
  type        = string

  validation {
    condition     = can(regex("^(rate|cron|at)\\(.+\\)$", var.schedule_expression))
    error_message = "schedule_expression must be rate(...), cron(...) or at(...)."
  }
}

variable "schedule_timezone" {
  description = "Time zone of a cron(...) or at(...) schedule expression (IANA name); also the guard's CLOUDLOCK_SCHEDULE_TIME_ZONE."
  type        = string
  default     = "UTC"
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

variable "store" {
  description = "The lock store (CLOUDLOCK_STORE): \"dynamodb\", a table (lock_table_name), or \"s3\", a bucket (lock_bucket_name, lock_key_prefix). The package needs the store's module (cloudlock-dynamodb or cloudlock-s3), and lock_access_policy_json the store's actions."
  type        = string
  default     = "dynamodb"

  validation {
    condition     = contains(["dynamodb", "s3"], var.store)
    error_message = "store is \"dynamodb\" (locks in a DynamoDB table: set lock_table_name) or \"s3\" (locks in an S3 bucket: set lock_bucket_name)."
  }
}

variable "lock_table_name" {
  description = "With store = \"dynamodb\": name of the DynamoDB lock table (CLOUDLOCK_DYNAMODB_TABLE_NAME), e.g. module.lock_table.table_name."
  type        = string
  default     = null
}

variable "lock_bucket_name" {
  description = "With store = \"s3\": name of the S3 lock bucket (CLOUDLOCK_S3_BUCKET), e.g. module.lock_bucket.bucket_name."
  type        = string
  default     = null
}

variable "lock_key_prefix" {
  description = "With store = \"s3\": key prefix of the lock objects (CLOUDLOCK_S3_PREFIX), e.g. module.lock_bucket.key_prefix; the bucket's policy grants the objects under it only."
  type        = string
  default     = "shedlock/"
}

variable "lock_access_policy_json" {
  description = "IAM policy (JSON) granting the lock store's actions, e.g. module.lock_table.lock_access_policy_json or module.lock_bucket.lock_access_policy_json."
  type        = string
}

variable "scheduler_retry_attempts" {
  description = "How often EventBridge Scheduler retries delivering a tick it could not hand to Lambda."
  type        = number
  default     = 3

  validation {
    condition     = var.scheduler_retry_attempts >= 0 && var.scheduler_retry_attempts <= 185
    error_message = "scheduler_retry_attempts is between 0 and 185."
  }
}

variable "maximum_event_age_seconds" {
  description = "How long Scheduler and Lambda keep retrying one tick before it goes to the dead-letter queue."
  type        = number
  default     = 3600

  validation {
    condition     = var.maximum_event_age_seconds >= 60 && var.maximum_event_age_seconds <= 21600
    error_message = "maximum_event_age_seconds is between 60 and 21600 (the smaller of the Scheduler and Lambda limits)."
  }
}

variable "function_retry_attempts" {
  description = "How often Lambda retries a failed asynchronous invocation. The guard releases a failed tick without marking it done, so a retry runs it again; a duplicate of a completed tick is skipped."
  type        = number
  default     = 2

  validation {
    condition     = var.function_retry_attempts >= 0 && var.function_retry_attempts <= 2
    error_message = "function_retry_attempts is 0, 1 or 2."
  }
}

variable "log_retention_days" {
  description = "Retention of the function's CloudWatch log group, in days."
  type        = number
  default     = 30

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.log_retention_days)
    error_message = "log_retention_days must be a retention CloudWatch Logs accepts (1, 3, 5, 7, 14, 30, 60, 90, ... 3653)."
  }
}

variable "environment" {
  description = "Additional environment variables of the function, e.g. the guard's optional CLOUDLOCK_LEASE_MARGIN or CLOUDLOCK_LOCK_AT_LEAST_FOR. The module sets CLOUDLOCK_STORE, the store's CLOUDLOCK_DYNAMODB_TABLE_NAME or CLOUDLOCK_S3_BUCKET and CLOUDLOCK_S3_PREFIX, CLOUDLOCK_JOB_NAME, CLOUDLOCK_TICK_RESOLUTION, CLOUDLOCK_WHEN_BUSY, CLOUDLOCK_EVERY_OCCURRENCE, CLOUDLOCK_SCHEDULE, CLOUDLOCK_SCHEDULE_TIME_ZONE, CLOUDLOCK_TICK_SOURCE and JAVA_TOOL_OPTIONS from its inputs."
  type        = map(string)
  default     = {}

  validation {
    condition     = length(setintersection(keys(var.environment), ["CLOUDLOCK_STORE", "CLOUDLOCK_DYNAMODB_TABLE_NAME", "CLOUDLOCK_S3_BUCKET", "CLOUDLOCK_S3_PREFIX", "CLOUDLOCK_JOB_NAME", "CLOUDLOCK_TICK_RESOLUTION", "CLOUDLOCK_WHEN_BUSY", "CLOUDLOCK_EVERY_OCCURRENCE", "CLOUDLOCK_SCHEDULE", "CLOUDLOCK_SCHEDULE_TIME_ZONE", "CLOUDLOCK_TICK_SOURCE", "JAVA_TOOL_OPTIONS"])) == 0
    error_message = "Set the module's own CLOUDLOCK_* variables and JAVA_TOOL_OPTIONS (java_tool_options) through its inputs, not environment."
  }
}

variable "tags" {
  description = "Tags for every resource the module creates."
  type        = map(string)
  default     = {}
}

variable "when_busy" {
  description = "How the guard answers a delivery that finds the job running (CLOUDLOCK_WHEN_BUSY): \"skip\" acknowledges it (quiet metrics; if the running attempt then fails and its own retries are used up, the tick is not run), \"retry\" fails the invocation so Lambda's retries (function_retry_attempts) deliver it again and it runs if the running attempt failed. Each busy delivery then counts in the function's Errors metric; a tick still running after the last retry goes to the dead-letter queue."
  type        = string
  default     = "skip"

  validation {
    condition     = contains(["skip", "retry"], var.when_busy)
    error_message = "when_busy is \"skip\" or \"retry\"."
  }
}

variable "every_occurrence" {
  description = "How the guard remembers completed ticks (CLOUDLOCK_EVERY_OCCURRENCE): false keeps the job's watermark (a retry of an older tick that arrives after a newer tick completed is skipped as done, so that occurrence never runs); true records each occurrence in a record of its own, <job>@<tick>, in the same store, so such a late retry still runs once. Costs two more writes per run and one record (a few hundred bytes) per occurrence, which expires after the guard's retention (CLOUDLOCK_OCCURRENCE_RETENTION, 7 days; set it in the environment to change it) where the lock module enables the store's expiry; a later delivery of its tick is refused. The job name may then have at most 230 characters."
  type        = bool
  default     = false
}
