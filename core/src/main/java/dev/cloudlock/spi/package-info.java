/**
 * What a store author implements: {@link dev.cloudlock.spi.LockStore}: three conditional writes and a read on one
 * record per lock name, and a listing and a setup for operators, with the request and result types, the record layout
 * ({@link dev.cloudlock.spi.LockFields}, {@link dev.cloudlock.spi.IsoTimestamps}) and the clock-skew estimate for
 * stores on client time. Every rule of the algorithm stays in {@code cloudlock-core}, behind
 * {@link dev.cloudlock.core.CloudLockProvider}; a store only maps these calls and its errors.
 */
@NullMarked
package dev.cloudlock.spi;

import org.jspecify.annotations.NullMarked;
