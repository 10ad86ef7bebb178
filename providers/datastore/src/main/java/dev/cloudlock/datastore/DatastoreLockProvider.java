package dev.cloudlock.datastore;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Datastore (Firestore in Datastore mode): {@link #builder()} builds a
 * {@link CloudLockProvider} (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held")
 * over a {@link DatastoreLockStore}, one entity per lock and one commit conditioned on the entity's version per
 * release and extend (acquire: one in the steady state, a lookup and a commit after another holder), with leases
 * judged by Datastore's clock where its lookups carry their read time.
 *
 * <p>Errors: a missing database, a database in Native mode, refused credentials and a missing role throw
 * {@link LockStoreConfigurationException} (fix the setup; the message names the role); an unreachable endpoint, a
 * deadline exceeded, an exhausted quota and contention throw {@link LockStoreUnavailableException} (retry later).
 * Anything else, such as an entity of the lock kind that is not a lock record, is a plain {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = DatastoreLockProvider.builder()
 *         .datastore(DatastoreOptions.getDefaultInstance().getService())
 *         .kind("shedlock")
 *         .build();
 * }</pre>
 */
public final class DatastoreLockProvider {

    /** The kind of the jobs' records unless another is configured. */
    public static final String DEFAULT_KIND = "shedlock";

    private DatastoreLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Datastore; {@code datastore} is required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable Datastore datastore;
        private String kind = DEFAULT_KIND;

        private Builder() {}

        /**
         * The Datastore client to use: its project, database, namespace, transport and credentials are the locks'.
         * Required.
         */
        public Builder datastore(Datastore datastore) {
            this.datastore = datastore;
            return this;
        }

        /**
         * The kind of the jobs' records; default {@code shedlock}. Occurrence records use it followed by
         * {@code _occurrences}. Nothing needs creating.
         */
        public Builder kind(String kind) {
            this.kind = DatastoreLockStore.checkKind(kind);
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            DatastoreOptions options = required(datastore, "datastore").getOptions();
            return new DatastoreLockStore(
                    options, kind, new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE), timeouts);
        }
    }
}
