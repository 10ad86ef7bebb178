locals {
  job_name = coalesce(var.job_name, var.function_name)
  # the store the locks live in: a Firestore collection, a kind of a database in Datastore mode, or a table of a
  # Spanner database
  store = var.spanner_database != null ? "spanner" : var.datastore_kind != null ? "datastore" : "firestore"
}

# Runs the function; the Firestore or Datastore lock module grants it roles/datastore.user (see examples/gcp and
# examples/gcp-datastore), or this module roles/spanner.databaseUser on the Spanner lock database
# (examples/gcp-spanner).
resource "google_service_account" "function" {
  project      = var.project_id
  account_id   = "${var.function_name}-fn"
  display_name = "${var.function_name} (cloudlock guarded function)"
}

# Delivers the Pub/Sub events to the function; may only invoke this function's service.
resource "google_service_account" "trigger" {
  project      = var.project_id
  account_id   = "${var.function_name}-trg"
  display_name = "${var.function_name} (Eventarc trigger)"
}

resource "google_pubsub_topic" "ticks" {
  project = var.project_id
  name    = "${var.function_name}-ticks"
}

# One message per tick. Cloud Scheduler retries a failed publish; the tick's key is then the message's
# publish time, which the guard truncates to the schedule's grain.
resource "google_cloud_scheduler_job" "this" {
  project   = var.project_id
  region    = var.region
  name      = var.function_name
  schedule  = var.schedule
  time_zone = var.time_zone

  retry_config {
    retry_count = 3
  }

  pubsub_target {
    topic_name = google_pubsub_topic.ticks.id
    data       = base64encode(jsonencode({ jobName = local.job_name }))
  }
}

resource "google_cloudfunctions2_function" "this" {
  project  = var.project_id
  location = var.region
  name     = var.function_name

  build_config {
    runtime     = var.runtime
    entry_point = var.entry_point

    source {
      storage_source {
        bucket = var.source_bucket
        object = var.source_object
      }
    }
  }

  service_config {
    service_account_email = google_service_account.function.email
    available_memory      = var.memory
    timeout_seconds       = var.timeout_seconds
    ingress_settings      = "ALLOW_INTERNAL_ONLY"
    max_instance_count    = var.max_instance_count
    vpc_connector         = var.vpc_connector

    vpc_connector_egress_settings = var.vpc_connector_egress_settings

    environment_variables = merge(var.environment, {
      CLOUDLOCK_STORE           = local.store
      CLOUDLOCK_JOB_NAME        = local.job_name
      CLOUDLOCK_TICK_RESOLUTION = var.tick_resolution
      # the lease follows the function's timeout (GCP does not tell a running function its time left)
      CLOUDLOCK_FUNCTION_TIMEOUT = "PT${var.timeout_seconds}S"
      CLOUDLOCK_WHEN_BUSY        = var.when_busy
      CLOUDLOCK_EVERY_OCCURRENCE = var.every_occurrence ? "true" : "false"
      # the scheduler job's schedule, so that the guard refuses a tick that is none of its occurrences and reports a
      # missed one
      CLOUDLOCK_SCHEDULE           = var.schedule
      CLOUDLOCK_SCHEDULE_TIME_ZONE = var.time_zone
      }, {
      firestore = {
        CLOUDLOCK_FIRESTORE_COLLECTION = var.firestore_collection
        CLOUDLOCK_FIRESTORE_DATABASE   = var.firestore_database
      }
      datastore = {
        CLOUDLOCK_DATASTORE_PROJECT  = var.project_id
        CLOUDLOCK_DATASTORE_DATABASE = var.datastore_database
        CLOUDLOCK_DATASTORE_KIND     = var.datastore_kind
      }
      spanner = {
        CLOUDLOCK_SPANNER_PROJECT  = var.project_id
        CLOUDLOCK_SPANNER_INSTANCE = var.spanner_instance
        CLOUDLOCK_SPANNER_DATABASE = var.spanner_database
        CLOUDLOCK_SPANNER_TABLE    = var.spanner_table
      }
    }[local.store])
  }

  event_trigger {
    trigger_region        = var.region
    event_type            = "google.cloud.pubsub.topic.v1.messagePublished"
    pubsub_topic          = google_pubsub_topic.ticks.id
    retry_policy          = var.retry_failed_ticks ? "RETRY_POLICY_RETRY" : "RETRY_POLICY_DO_NOT_RETRY"
    service_account_email = google_service_account.trigger.email
  }

  lifecycle {
    precondition {
      # A busy delivery that fails without a redelivery would be lost: worse than skipping it.
      condition     = var.when_busy != "retry" || var.retry_failed_ticks
      error_message = "when_busy = \"retry\" needs retry_failed_ticks = true: Pub/Sub must redeliver the message the function did not acknowledge."
    }

    precondition {
      condition     = length(compact([var.firestore_collection, var.datastore_kind, var.spanner_database])) == 1
      error_message = "Set one of firestore_collection (locks in Firestore), datastore_kind (in a database in Datastore mode) or spanner_database (in a Spanner database, with spanner_instance), not more."
    }

    precondition {
      condition     = (var.spanner_database == null) == (var.spanner_instance == null)
      error_message = "spanner_database and spanner_instance go together: the instance holds the database."
    }

    precondition {
      condition     = var.vpc_connector_egress_settings == null || var.vpc_connector != null
      error_message = "vpc_connector_egress_settings needs vpc_connector."
    }
  }
}

resource "google_cloud_run_v2_service_iam_member" "trigger_invokes_function" {
  project  = var.project_id
  location = var.region
  name     = google_cloudfunctions2_function.this.service_config[0].service
  role     = "roles/run.invoker"
  member   = google_service_account.trigger.member
}

# Least privilege for the locks in Spanner: read and write data in the lock database only (no DDL: the table is made
# once by cloudlock init or the DDL of the store's page, with roles/spanner.databaseAdmin).
resource "google_spanner_database_iam_member" "lock_user" {
  count    = var.spanner_database == null ? 0 : 1
  project  = var.project_id
  instance = var.spanner_instance
  database = var.spanner_database
  role     = "roles/spanner.databaseUser"
  member   = google_service_account.function.member
}
