variable "subscription_id" {
  description = "Azure subscription to deploy to."
  type        = string

  validation {
    condition     = can(regex("^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$", var.subscription_id))
    error_message = "subscription_id is a GUID."
  }
}

variable "location" {
  description = "Azure region, e.g. westeurope."
  type        = string
}

variable "name" {
  description = "Prefix of every resource name (lowercase letters and digits); the Function App is named after it and so is the lock, by default."
  type        = string
  default     = "cloudlockdemo"

  validation {
    condition     = can(regex("^[a-z][a-z0-9]{2,15}$", var.name))
    error_message = "name has 3 to 16 lowercase letters and digits, starting with a letter."
  }
}

variable "package_zip" {
  description = "Path of the Function App package with the timer function and the cloudlock guard."
  type        = string
}

variable "timer_schedule" {
  description = "NCRONTAB schedule of the timer (six fields)."
  type        = string
  default     = "0 * * * * *"
}
