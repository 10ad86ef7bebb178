/**
 * cloudlock core: the {@link dev.cloudlock.core.LockStore} SPI and {@link dev.cloudlock.core.CloudLockProvider},
 * ShedLock's {@code lock_until} algorithm with owner-checked release, fencing tokens and tick dedupe.
 */
package dev.cloudlock.core;
