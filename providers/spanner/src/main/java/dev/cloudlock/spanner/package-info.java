/** The ShedLock lock provider on Cloud Spanner: one row per lock, on the server's clock. */
@NullMarked
package dev.cloudlock.spanner;

import org.jspecify.annotations.NullMarked;
