/** The lock provider on Datastore (Firestore in Datastore mode): one entity per lock, on the server's clock. */
@NullMarked
package dev.cloudlock.datastore;

import org.jspecify.annotations.NullMarked;
