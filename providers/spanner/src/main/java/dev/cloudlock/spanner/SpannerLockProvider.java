package dev.cloudlock.spanner;

import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Spanner;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Cloud Spanner: {@link #builder()} builds a {@link CloudLockProvider}
 * (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held") over a
 * {@link SpannerLockStore}, with every lease compared against and computed from Spanner's own clock, so client clock
 * skew cannot let two instances hold a lock. Acquire, release and extend are each one read-write transaction: a
 * query and a commit, two RPCs.
 *
 * <p>Deadlines: every operation, the transaction runner's retries of an aborted transaction included, ends at the
 * builder's {@code callTimeout}; {@code attemptTimeout} does not apply, since the client's retry settings bound each
 * RPC.
 *
 * <p>Errors: a missing instance, database or table, a table of another layout and refused credentials or a missing
 * role throw {@link LockStoreConfigurationException} (fix the setup; the message names the role to grant); an
 * unreachable endpoint, a deadline exceeded, an exhausted quota and contention beyond the runner's retries throw
 * {@link LockStoreUnavailableException} (retry later). Anything else is a plain {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = SpannerLockProvider.builder()
 *         .spanner(spanner)
 *         .database(DatabaseId.of("my-project", "my-instance", "my-database"))
 *         .table("shedlock")
 *         .build();
 * }</pre>
 */
public final class SpannerLockProvider {

    /** The table used unless another is configured. */
    public static final String DEFAULT_TABLE = "shedlock";

    private SpannerLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Cloud Spanner; {@code spanner} and {@code database} are required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable Spanner spanner;
        private @Nullable DatabaseId database;
        private String table = DEFAULT_TABLE;

        private Builder() {}

        /** The Spanner client to use (its project, credentials and endpoint are the caller's choice). Required. */
        public Builder spanner(Spanner spanner) {
            this.spanner = spanner;
            return this;
        }

        /** The database holding the lock table. Required. */
        public Builder database(DatabaseId database) {
            this.database = database;
            return this;
        }

        /** The table holding one row per lock; default {@code shedlock}. {@code cloudlock init} creates it. */
        public Builder table(String table) {
            this.table = table;
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            Spanner client = required(spanner, "spanner");
            DatabaseId id = required(database, "database");
            return new SpannerLockStore(
                    client.getDatabaseClient(id), client.getDatabaseAdminClient(), id, table, timeouts);
        }
    }
}
