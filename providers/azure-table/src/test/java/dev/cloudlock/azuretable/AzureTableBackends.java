package dev.cloudlock.azuretable;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;

/** Table Storage clients on the shared Azurite, configured as docs/stores/azure-table.md shows. */
final class AzureTableBackends {

    static final String TABLE = "locks";
    static final String MISSING_TABLE = "nosuchtable";

    private static TableServiceClient shared;

    private AzureTableBackends() {}

    /** The service client of the shared Azurite, with the lock table created on first use. */
    static synchronized TableServiceClient service() {
        if (shared == null) {
            shared = new TableServiceClientBuilder()
                    .connectionString(connectionString(Emulators.azuriteTable().endpoint()))
                    .buildClient();
            shared.createTableIfNotExists(TABLE);
        }
        return shared;
    }

    /** The lock table on the shared Azurite. */
    static TableClient table() {
        return service().getTableClient(TABLE);
    }

    /** A table that does not exist, on the shared Azurite. */
    static TableClient missingTable() {
        return service().getTableClient(MISSING_TABLE);
    }

    /** A client of the lock table at {@code endpoint} (e.g. a port nothing listens on). */
    static TableClient tableAt(String endpoint) {
        return new TableClientBuilder()
                .connectionString(connectionString(endpoint))
                .tableName(TABLE)
                .buildClient();
    }

    /**
     * A client of the lock table at {@code endpoint} that retries after 50 ms to 0.5 s rather than the SDK's 0.8 s
     * and more: for a wire that injects faults, so that each one costs the test a moment, not the call's deadline.
     */
    static TableClient quicklyRetryingTableAt(String endpoint) {
        return new TableClientBuilder()
                .connectionString(connectionString(endpoint))
                .tableName(TABLE)
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions()
                        .setMaxRetries(4)
                        .setBaseDelay(Duration.ofMillis(50))
                        .setMaxDelay(Duration.ofMillis(500))))
                .buildClient();
    }

    /**
     * A client of the lock table on a port nothing listens on, without retries (they only add backoff to a refused
     * connection).
     */
    static TableClient unreachableTable() {
        return new TableClientBuilder()
                .connectionString(connectionString("http://127.0.0.1:" + EmulatorProcess.freePort()))
                .tableName(TABLE)
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient();
    }

    static String connectionString(String endpoint) {
        return Emulators.azuriteTableConnectionString(endpoint);
    }
}
