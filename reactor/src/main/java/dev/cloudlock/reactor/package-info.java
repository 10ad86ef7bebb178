/**
 * Locks for applications that are reactive end to end ({@link dev.cloudlock.reactor.ReactiveLocks}): work under a
 * lock held for its publisher's lifetime, waiting for a lock, and a scheduled occurrence run once, each a
 * {@code Mono}; the blocking store calls run on a bounded scheduler.
 */
@NullMarked
package dev.cloudlock.reactor;

import org.jspecify.annotations.NullMarked;
