/**
 * The function guard on Azure Functions: runs a timer-triggered function's body at most once per scheduled
 * occurrence, on Cosmos DB by default ({@link dev.cloudlock.function.azure.AzureTickGuard}).
 */
@NullMarked
package dev.cloudlock.function.azure;

import org.jspecify.annotations.NullMarked;
