/**
 * What an application uses: {@link dev.cloudlock.core.CloudLockProvider} (ShedLock's {@code lock_until} algorithm
 * with owner-checked release, fencing tokens and tick dedupe, on any {@link dev.cloudlock.spi.LockStore}),
 * {@link dev.cloudlock.core.FencedLock}, {@link dev.cloudlock.core.TickAttempt} with its
 * {@link dev.cloudlock.core.TickStatus}, the in-memory store for tests, and the exceptions a caller can act on. Store
 * authors implement {@link dev.cloudlock.spi}.
 */
@NullMarked
package dev.cloudlock.core;

import org.jspecify.annotations.NullMarked;
