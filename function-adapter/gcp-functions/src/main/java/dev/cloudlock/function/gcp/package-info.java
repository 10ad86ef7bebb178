/**
 * The function guard on Google Cloud Functions: Pub/Sub and Cloud Scheduler HTTP functions that run each scheduled
 * occurrence at most once, on Firestore by default ({@link dev.cloudlock.function.gcp.GcpTickGuard}).
 */
@NullMarked
package dev.cloudlock.function.gcp;

import org.jspecify.annotations.NullMarked;
