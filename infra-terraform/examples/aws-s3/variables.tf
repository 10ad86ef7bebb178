variable "region" {
  description = "AWS region to deploy to, e.g. eu-west-1."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]+$", var.region))
    error_message = "region is an AWS region name such as eu-west-1."
  }
}

variable "name" {
  description = "Name of the function and its schedule; with the default job name, also the lock name."
  type        = string
  default     = "cloudlock-demo"
}

variable "bucket_name" {
  description = "Name of the S3 lock bucket (globally unique), e.g. cloudlock-demo-locks-<account id>."
  type        = string
}

variable "package_file" {
  description = "Path of the function's deployment package (jar or zip with the cloudlock Lambda guard and cloudlock-s3)."
  type        = string
}

variable "handler" {
  description = "Handler of the function, e.g. com.example.DemoJob::handleRequest."
  type        = string
}

variable "schedule_expression" {
  description = "EventBridge Scheduler expression of the job."
  type        = string
  default     = "rate(1 minute)"
}
