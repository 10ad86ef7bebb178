variable "resource_group_name" {
  description = "Resource group of the Cosmos DB account."
  type        = string
}

variable "location" {
  description = "Azure region of the account, e.g. westeurope."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9]+$", var.location))
    error_message = "location is an Azure region name such as westeurope (lowercase, no spaces)."
  }
}

variable "account_name" {
  description = "Name of the serverless Cosmos DB account (globally unique)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{1,42}[a-z0-9]$", var.account_name))
    error_message = "A Cosmos DB account name has 3 to 44 lowercase letters, digits and '-'."
  }
}

variable "database_name" {
  description = "Name of the SQL database (CLOUDLOCK_COSMOS_DATABASE)."
  type        = string
  default     = "cloudlock"

  validation {
    condition     = can(regex("^[^/\\\\?#]{1,255}$", var.database_name))
    error_message = "A database name has 1 to 255 characters and no '/', '\\', '?' or '#'."
  }
}

variable "container_name" {
  description = "Name of the lock container (CLOUDLOCK_COSMOS_CONTAINER)."
  type        = string
  default     = "shedlock"

  validation {
    condition     = can(regex("^[^/\\\\?#]{1,255}$", var.container_name))
    error_message = "A container name has 1 to 255 characters and no '/', '\\', '?' or '#'."
  }
}

variable "consistency_level" {
  description = "Default consistency of the account. The provider's writes are conditional (ETag or filter predicate) and checked where they are written, whatever the level; Strong also makes every read current."
  type        = string
  default     = "Strong"

  validation {
    condition     = contains(["Strong", "BoundedStaleness", "Session", "ConsistentPrefix", "Eventual"], var.consistency_level)
    error_message = "consistency_level is Strong, BoundedStaleness, Session, ConsistentPrefix or Eventual."
  }
}

variable "lock_user_principal_ids" {
  description = "Entra ID principal (object) ids that take locks, keyed by a name known at plan time, e.g. { job = module.job.principal_id }. Each gets the Cosmos DB Built-in Data Contributor role on the lock container only."
  type        = map(string)
  default     = {}
}

variable "tags" {
  description = "Tags for the account."
  type        = map(string)
  default     = {}
}
