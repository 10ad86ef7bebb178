/**
 * Micrometer meters and observations for cloudlock, usable without Spring: {@link
 * dev.cloudlock.micrometer.MeteredLockStore} times every store request and counts lock attempts,
 * {@link dev.cloudlock.micrometer.ObservedLockProvider} observes each held lock, and
 * {@link dev.cloudlock.micrometer.GuardMeters} counts and observes the deliveries to the function guards.
 */
@NullMarked
package dev.cloudlock.micrometer;

import org.jspecify.annotations.NullMarked;
