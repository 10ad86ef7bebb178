variable "bucket_name" {
  description = "Name of the S3 lock bucket (globally unique)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.bucket_name))
    error_message = "An S3 bucket name has 3 to 63 characters: lowercase letters, digits, '.' and '-', starting and ending with a letter or digit."
  }
}

variable "key_prefix" {
  description = "Key prefix of the lock objects; must equal the S3 provider's prefix (its default is \"shedlock/\")."
  type        = string
  default     = "shedlock/"

  validation {
    condition     = can(regex("^([^/*?][^*?]*/)?$", var.key_prefix))
    error_message = "The key prefix is empty or ends with '/', does not start with '/', and has no '*' or '?'."
  }
}

variable "kms_key_arn" {
  description = "KMS key for server-side encryption (SSE-KMS); null uses S3-managed keys (SSE-S3). With a key, lock users also need kms:Decrypt and kms:GenerateDataKey on it."
  type        = string
  default     = null

  validation {
    condition     = var.kms_key_arn == null || can(regex("^arn:", var.kms_key_arn))
    error_message = "kms_key_arn must be a KMS key ARN or null."
  }
}

variable "occurrence_expiration_days" {
  description = "Days after its last write an occurrence record (under <key_prefix>occurrences/) is expired: at least one more than the guard's CLOUDLOCK_OCCURRENCE_RETENTION in days (7 by default), which refuses older ticks. Job records never expire."
  type        = number
  default     = 8

  validation {
    condition     = var.occurrence_expiration_days >= 2 && floor(var.occurrence_expiration_days) == var.occurrence_expiration_days
    error_message = "occurrence_expiration_days is a whole number of days, at least 2 (the retention, at least a day, plus one)."
  }
}

variable "force_destroy" {
  description = "Let `terraform destroy` delete a bucket that still holds lock objects (and with them the fencing tokens)."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags for the bucket."
  type        = map(string)
  default     = {}
}
