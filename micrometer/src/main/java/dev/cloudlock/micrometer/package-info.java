/**
 * Micrometer meters and observations for cloudlock, usable without Spring: {@link
 * dev.cloudlock.micrometer.MeteredLockStore} times every store request and counts lock attempts,
 * {@link dev.cloudlock.micrometer.ObservedLockProvider} observes each held lock, and
 * {@link dev.cloudlock.micrometer.TickMeters} counts and observes the function guards' ticks.
 */
@NullMarked
package dev.cloudlock.micrometer;

import org.jspecify.annotations.NullMarked;
