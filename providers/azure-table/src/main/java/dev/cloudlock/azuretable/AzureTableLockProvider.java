package dev.cloudlock.azuretable;

import com.azure.data.tables.TableClient;
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
 * The ShedLock {@code LockProvider} on Azure Table Storage: {@link #builder()} builds a {@link CloudLockProvider}
 * (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held") over an
 * {@link AzureTableLockStore}, one entity per lock and one conditional write per release and extend (acquire: one in
 * the steady state, a Get Entity and a write after another holder). It needs only a storage account, such as the one
 * every Azure Functions app already has ({@code AzureWebJobsStorage}).
 *
 * <p>Errors: a missing table, rejected credentials and a missing role throw {@link LockStoreConfigurationException}
 * (fix the setup; the message names the table or the role); an unreachable endpoint, a timeout, 503 ServerBusy and
 * other 5xx throw {@link LockStoreUnavailableException} (retry later). Anything else, such as an entity in the lock
 * partitions that is not a lock record, is a plain {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = AzureTableLockProvider.builder()
 *         .table(new TableClientBuilder()
 *                 .connectionString(System.getenv("AzureWebJobsStorage"))
 *                 .tableName("locks")
 *                 .buildClient())
 *         .build();
 * }</pre>
 */
public final class AzureTableLockProvider {

    private AzureTableLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Table Storage; {@code table} is required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable TableClient table;

        private Builder() {}

        /** The client of the table holding the lock entities; the table must exist. Required. */
        public Builder table(TableClient table) {
            this.table = table;
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new AzureTableLockStore(
                    required(table, "table"), new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE), timeouts);
        }
    }
}
