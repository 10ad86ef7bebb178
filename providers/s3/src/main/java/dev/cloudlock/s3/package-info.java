/** The ShedLock lock provider on Amazon S3: one object per lock, changed by conditional {@code PutObject}s. */
@NullMarked
package dev.cloudlock.s3;

import org.jspecify.annotations.NullMarked;
