locals {
  job_name = coalesce(var.job_name, var.function_name)

  # EventBridge Scheduler replaces <aws.scheduler.scheduled-time> with the tick's scheduled time: the same
  # value on every retry of that tick, which is what the guard dedupes on. jsonencode writes < and > as
  # \u003c and \u003e; the placeholder is written as it is, so that it is found in the text as sent.
  schedule_input = replace(replace(jsonencode({
    scheduledTime = "<aws.scheduler.scheduled-time>"
    jobName       = local.job_name
  }), "\\u003c", "<"), "\\u003e", ">")

  # With SnapStart, Lambda snapshots published versions only: the schedule invokes the alias of the latest one.
  invoked_arn = var.snap_start ? aws_lambda_alias.live[0].arn : aws_lambda_function.this.arn

  java_tool_options = var.java_tool_options == null || var.java_tool_options == "" ? {} : {
    JAVA_TOOL_OPTIONS = var.java_tool_options
  }

  in_vpc = length(var.vpc_subnet_ids) > 0

  # The chosen store's variables, CLOUDLOCK_<STORE>_<SETTING>: those of the other store stay unset.
  store_environment = {
    dynamodb = {
      CLOUDLOCK_DYNAMODB_TABLE_NAME = var.lock_table_name
    }
    s3 = {
      CLOUDLOCK_S3_BUCKET = var.lock_bucket_name
      CLOUDLOCK_S3_PREFIX = var.lock_key_prefix
    }
  }[var.store]
}

data "aws_caller_identity" "current" {}

# Failed ticks end here: undeliverable ones from Scheduler, failed invocations after Lambda's retries.
resource "aws_sqs_queue" "dead_letters" {
  name                      = "${var.function_name}-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
  tags                      = var.tags
}

resource "aws_cloudwatch_log_group" "function" {
  name              = "/aws/lambda/${var.function_name}"
  retention_in_days = var.log_retention_days
  tags              = var.tags
}

data "aws_iam_policy_document" "lambda_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "function" {
  name               = "${var.function_name}-fn"
  assume_role_policy = data.aws_iam_policy_document.lambda_assume.json
  tags               = var.tags
}

data "aws_iam_policy_document" "function" {
  statement {
    sid       = "OwnLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.function.arn}:*"]
  }

  statement {
    sid       = "FailedInvocationsToDeadLetters"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.dead_letters.arn]
  }

  # Only with tracing_mode = "Active". X-Ray's write actions take no resource-level permissions.
  dynamic "statement" {
    for_each = var.tracing_mode == "Active" ? [1] : []

    content {
      sid       = "ActiveTracing"
      actions   = ["xray:PutTraceSegments", "xray:PutTelemetryRecords"]
      resources = ["*"]
    }
  }

  # Only in a VPC: the network interfaces Lambda creates for the function in its subnets (the EC2 actions of
  # AWSLambdaVPCAccessExecutionRole; they take no resource-level permissions either).
  dynamic "statement" {
    for_each = local.in_vpc ? [1] : []

    content {
      sid = "VpcNetworkInterfaces"
      actions = [
        "ec2:CreateNetworkInterface",
        "ec2:DescribeNetworkInterfaces",
        "ec2:DescribeSubnets",
        "ec2:DeleteNetworkInterface",
        "ec2:AssignPrivateIpAddresses",
        "ec2:UnassignPrivateIpAddresses",
      ]
      resources = ["*"]
    }
  }
}

resource "aws_iam_role_policy" "function" {
  name   = "logs-and-dead-letters"
  role   = aws_iam_role.function.id
  policy = data.aws_iam_policy_document.function.json
}

# Exactly what the chosen store's lock module grants: the table's or the bucket prefix's actions.
resource "aws_iam_role_policy" "lock_access" {
  name   = "cloudlock-locks"
  role   = aws_iam_role.function.id
  policy = var.lock_access_policy_json

  # A new name (this policy was cloudlock-lock-table) replaces the policy: attach the new one before the old one goes,
  # so that a running function keeps its lock permissions during the apply.
  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_lambda_function" "this" {
  function_name                  = var.function_name
  role                           = aws_iam_role.function.arn
  filename                       = var.package_file
  source_code_hash               = var.package_file == null ? null : filebase64sha256(var.package_file)
  s3_bucket                      = var.s3_bucket
  s3_key                         = var.s3_key
  s3_object_version              = var.s3_object_version
  handler                        = var.handler
  runtime                        = var.runtime
  architectures                  = var.architectures
  memory_size                    = var.memory_size
  timeout                        = var.timeout_seconds
  reserved_concurrent_executions = var.reserved_concurrent_executions
  publish                        = var.snap_start
  tags                           = var.tags

  dynamic "snap_start" {
    for_each = var.snap_start ? [1] : []

    content {
      apply_on = "PublishedVersions"
    }
  }

  environment {
    variables = merge(var.environment, local.java_tool_options, local.store_environment, {
      CLOUDLOCK_STORE            = var.store
      CLOUDLOCK_JOB_NAME         = local.job_name
      CLOUDLOCK_TICK_RESOLUTION  = var.tick_resolution
      CLOUDLOCK_WHEN_BUSY        = var.when_busy
      CLOUDLOCK_EVERY_OCCURRENCE = var.every_occurrence ? "true" : "false"
      # the schedule this module creates, so that the guard refuses a tick that is none of its occurrences and
      # reports a missed one
      CLOUDLOCK_SCHEDULE           = var.schedule_expression
      CLOUDLOCK_SCHEDULE_TIME_ZONE = var.schedule_timezone
      # what the schedule's input carries the scheduled time as, for a Spring Cloud Function guard: it then reads
      # the right field, and refuses at startup a configured tick-source that cannot
      CLOUDLOCK_TICK_SOURCE = "eventbridge-scheduler"
    })
  }

  logging_config {
    log_format = "Text"
    log_group  = aws_cloudwatch_log_group.function.name
  }

  dynamic "tracing_config" {
    for_each = var.tracing_mode == null ? [] : [var.tracing_mode]

    content {
      mode = tracing_config.value
    }
  }

  dynamic "vpc_config" {
    for_each = local.in_vpc ? [1] : []

    content {
      subnet_ids         = var.vpc_subnet_ids
      security_group_ids = var.vpc_security_group_ids
    }
  }

  lifecycle {
    precondition {
      condition     = var.store != "dynamodb" || (var.lock_table_name != null && var.lock_bucket_name == null)
      error_message = "store = \"dynamodb\" needs lock_table_name (e.g. module.lock_table.table_name) and no lock_bucket_name."
    }

    precondition {
      condition     = var.store != "s3" || (var.lock_bucket_name != null && var.lock_table_name == null)
      error_message = "store = \"s3\" needs lock_bucket_name (e.g. module.lock_bucket.bucket_name) and no lock_table_name."
    }

    precondition {
      condition     = (var.package_file == null) != (var.s3_bucket == null && var.s3_key == null)
      error_message = "Give the deployment package either as package_file or as s3_bucket and s3_key, not both and not neither."
    }

    precondition {
      condition     = (var.s3_bucket == null) == (var.s3_key == null) && (var.s3_object_version == null || var.s3_bucket != null)
      error_message = "A package in S3 needs both s3_bucket and s3_key (s3_object_version only with them)."
    }

    precondition {
      condition     = (length(var.vpc_subnet_ids) == 0) == (length(var.vpc_security_group_ids) == 0)
      error_message = "A function in a VPC needs both vpc_subnet_ids and vpc_security_group_ids; leave both empty for no VPC."
    }
  }

  # The role's VPC and X-Ray permissions come with the function policy, before Lambda checks them.
  depends_on = [aws_iam_role_policy.function, aws_iam_role_policy.lock_access]
}

# SnapStart: the alias follows the version published with each change; the snapshot is taken when it is published.
resource "aws_lambda_alias" "live" {
  count            = var.snap_start ? 1 : 0
  name             = "live"
  function_name    = aws_lambda_function.this.function_name
  function_version = aws_lambda_function.this.version
}

# Scheduler invokes the function asynchronously: Lambda's own retries and failure destination apply.
# With when_busy = "retry", a delivery that finds the job running fails, and these retries (about 1 and 3 minutes
# later) bring it back: it then finds the tick done, or runs it if the running attempt failed.
resource "aws_lambda_function_event_invoke_config" "this" {
  function_name                = aws_lambda_function.this.function_name
  qualifier                    = var.snap_start ? aws_lambda_alias.live[0].name : null
  maximum_retry_attempts       = var.function_retry_attempts
  maximum_event_age_in_seconds = var.maximum_event_age_seconds

  lifecycle {
    precondition {
      condition     = var.when_busy != "retry" || (var.function_retry_attempts >= 1 && var.maximum_event_age_seconds >= 300)
      error_message = "when_busy = \"retry\" needs Lambda to retry a failed invocation: function_retry_attempts >= 1 and maximum_event_age_seconds >= 300 (Lambda's retries come about 1 and 2 minutes apart)."
    }
  }

  destination_config {
    on_failure {
      destination = aws_sqs_queue.dead_letters.arn
    }
  }
}

data "aws_iam_policy_document" "scheduler_assume" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["scheduler.amazonaws.com"]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "scheduler" {
  name               = "${var.function_name}-sched"
  assume_role_policy = data.aws_iam_policy_document.scheduler_assume.json
  tags               = var.tags
}

data "aws_iam_policy_document" "scheduler" {
  statement {
    sid       = "InvokeTheFunction"
    actions   = ["lambda:InvokeFunction"]
    resources = [local.invoked_arn]
  }

  statement {
    sid       = "UndeliveredTicksToDeadLetters"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.dead_letters.arn]
  }
}

resource "aws_iam_role_policy" "scheduler" {
  name   = "invoke-and-dead-letters"
  role   = aws_iam_role.scheduler.id
  policy = data.aws_iam_policy_document.scheduler.json
}

resource "aws_scheduler_schedule" "this" {
  name                         = var.function_name
  schedule_expression          = var.schedule_expression
  schedule_expression_timezone = var.schedule_timezone

  flexible_time_window {
    mode = "OFF"
  }

  target {
    arn      = local.invoked_arn
    role_arn = aws_iam_role.scheduler.arn
    input    = local.schedule_input

    retry_policy {
      maximum_retry_attempts       = var.scheduler_retry_attempts
      maximum_event_age_in_seconds = var.maximum_event_age_seconds
    }

    dead_letter_config {
      arn = aws_sqs_queue.dead_letters.arn
    }
  }
}
