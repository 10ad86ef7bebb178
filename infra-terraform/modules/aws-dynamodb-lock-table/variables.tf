variable "table_name" {
  description = "Name of the DynamoDB lock table; the Java side passes it to DynamoDbLockProvider.builder().tableName(...)."
  type        = string
  default     = "shedlock"

  validation {
    condition     = can(regex("^[A-Za-z0-9_.-]{3,255}$", var.table_name))
    error_message = "A DynamoDB table name has 3 to 255 characters: letters, digits, '_', '-' and '.'."
  }
}

variable "partition_key" {
  description = "Name of the table's string partition key. Keep the default \"_id\" (DynamoDbLockProvider.DEFAULT_PARTITION_KEY, ShedLock's layout) unless the provider is built with .partitionKey(...)."
  type        = string
  default     = "_id"

  validation {
    condition     = length(var.partition_key) > 0 && length(var.partition_key) <= 255
    error_message = "The partition key name must have 1 to 255 characters."
  }
}

variable "sort_key" {
  description = "Name of a string sort key, for a table shared with the application's own items; null (the default) for a table keyed by the partition key only. With a sort key, build the provider with .partitionKey(var.partition_key).sortKey(var.sort_key, \"LOCK#\") (or another value no application item uses)."
  type        = string
  default     = null

  validation {
    condition     = var.sort_key == null ? true : length(var.sort_key) > 0 && length(var.sort_key) <= 255
    error_message = "The sort key name must have 1 to 255 characters."
  }
}

variable "point_in_time_recovery" {
  description = "Turn on point-in-time recovery for the table (restores keep the fencing tokens the table held)."
  type        = bool
  default     = false
}

variable "deletion_protection" {
  description = "Protect the table from deletion; deleting it resets every fencing token."
  type        = bool
  default     = true
}

variable "allow_describe_table" {
  description = "Also grant dynamodb:DescribeTable in the lock policy. The provider calls it only after a validation error, to say whether the table's key matches its configuration."
  type        = bool
  default     = true
}

variable "tags" {
  description = "Tags for the table."
  type        = map(string)
  default     = {}
}
