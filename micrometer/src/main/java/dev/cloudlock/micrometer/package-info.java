/**
 * Micrometer meters and observations for cloudlock, usable without Spring:
 * {@link dev.cloudlock.micrometer.CloudLockMeters#instrument} counts every lock attempt by outcome and observes each
 * held lock by listening to the provider's decisions, and times every store request
 * ({@link dev.cloudlock.micrometer.MeteredLockStore}); {@link dev.cloudlock.micrometer.GuardMeters} counts and
 * observes the deliveries to the function guards.
 */
@NullMarked
package dev.cloudlock.micrometer;

import org.jspecify.annotations.NullMarked;
