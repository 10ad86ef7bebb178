/**
 * The function guard on AWS Lambda: handlers for EventBridge rules and EventBridge Scheduler that run each scheduled
 * occurrence at most once, on DynamoDB by default ({@link dev.cloudlock.function.aws.LambdaTickGuard}).
 */
@NullMarked
package dev.cloudlock.function.aws;

import org.jspecify.annotations.NullMarked;
