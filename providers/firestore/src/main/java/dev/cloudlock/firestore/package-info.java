/** The ShedLock lock provider on Cloud Firestore: one document per lock, on the server's clock. */
@NullMarked
package dev.cloudlock.firestore;

import org.jspecify.annotations.NullMarked;
