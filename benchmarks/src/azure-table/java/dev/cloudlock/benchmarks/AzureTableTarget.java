package dev.cloudlock.benchmarks;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import dev.cloudlock.azuretable.AzureTableLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The Table Storage provider on Azurite's table service, with every request counted on the wire by HTTP method (Get,
 * Insert and Update Entity).
 */
final class AzureTableTarget implements LockCycleBenchmark.Target {

    /**
     * Table Storage, LRS: USD per million transactions of any kind, as last known for East US, not re-checked on this
     * machine (no access to the pricing page).
     */
    static final double TRANSACTION_PRICE = 0.036;

    private final RequestCounts requests = new RequestCounts();
    private final TableClient table;
    private final Map<String, String> floorETags = new HashMap<>();
    /**
     * Where this target's floor entities live: row keys of its own, since the emulator outlives it and another target
     * of the same JVM may have created the same names (a first floor write is an insert).
     */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    private long floorFence;

    AzureTableTarget() {
        this(Emulators.azuriteTable().endpoint());
    }

    /**
     * A client of a table of its own (the emulator outlives a target, and a report builds several) on Azurite's table
     * service at {@code endpoint} (the emulator, or a proxy in front of it) that retries
     * after 50 ms to 0.5 s rather than the SDK's seconds, so that a fault on the wire costs a soak a moment (without
     * faults, nothing is retried).
     */
    AzureTableTarget(String endpoint) {
        table = new TableClientBuilder()
                .connectionString(Emulators.azuriteTableConnectionString(endpoint))
                .tableName("benchlocks" + System.nanoTime())
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions()
                        .setMaxRetries(4)
                        .setBaseDelay(Duration.ofMillis(50))
                        .setMaxDelay(Duration.ofMillis(500))))
                .addPolicy(new CountingPolicy(requests))
                .buildClient();
        table.createTable();
        drainRequests();
    }

    @Override
    public String name() {
        return "Azure Table Storage on Azurite 3.35.0";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return AzureTableLockProvider.builder().table(table).lockedBy(lockedBy).build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One Update Entity with {@code If-Match} the entity's current ETag (an Insert Entity the first time). */
    @Override
    public void floorWrite(String name) {
        String row = floorPrefix + name;
        TableEntity entity = new TableEntity("floor", row)
                .addProperty("lockUntil", "2000-01-01T00:00:00.000Z")
                .addProperty("lockedAt", "2000-01-01T00:00:00.000Z")
                .addProperty("lockedBy", "bench-host/1234")
                .addProperty("owner", "0f8fad5b-d9cb-469f-a165-70867728950e")
                .addProperty("fence", ++floorFence);
        String etag = floorETags.get(row);
        String written;
        if (etag == null) {
            written = table.createEntityWithResponse(entity, null, null)
                    .getHeaders()
                    .getValue(HttpHeaderName.ETAG);
        } else {
            entity.addProperty("odata.etag", etag);
            written = table.updateEntityWithResponse(entity, TableEntityUpdateMode.REPLACE, true, null, null)
                    .getHeaders()
                    .getValue(HttpHeaderName.ETAG);
        }
        // Azurite's ETag header leaves out the quotes its entities' ETags have, and refuses it back unquoted
        floorETags.put(
                row,
                written.startsWith("W/") && !written.startsWith("W/\"")
                        ? "W/\"" + written.substring(2) + "\""
                        : written);
    }

    @Override
    public void floorRead(String name) {
        table.getEntity("floor", floorPrefix + name);
    }

    @Override
    public double pricePerMillion(String operation) {
        return TRANSACTION_PRICE;
    }

    @Override
    public String prices() {
        return "Table Storage, LRS, East US: $0.00036 per 10,000 transactions of any kind (list price as last known,"
                + " not re-checked here: check azure.microsoft.com/pricing/details/storage/tables); a lock entity is"
                + " a few hundred bytes, storage is negligible.";
    }

    /** The entity's properties as the service counts them for storage: names and values, plus the keys. */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        TableEntity entity = table.listEntities().stream()
                .filter(candidate -> lockName.equals(candidate.getProperty("name")))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no entity of lock " + lockName));
        long bytes =
                4 + 2L * (entity.getPartitionKey().length() + entity.getRowKey().length());
        for (Map.Entry<String, Object> property : entity.getProperties().entrySet()) {
            if (property.getKey().startsWith("odata.")
                    || property.getKey().equals("PartitionKey")
                    || property.getKey().equals("RowKey")
                    || property.getKey().equals("Timestamp")) {
                continue;
            }
            Object value = property.getValue();
            bytes += 8 + 2L * property.getKey().length() + (value instanceof String text ? 4 + 2L * text.length() : 8);
        }
        return new LockCycleBenchmark.StoredSize(
                bytes, "Azure's entity size formula: 4 B + keys and property names and string values in UTF-16");
    }

    @Override
    public void close() {
        // the table client holds no resources of its own; Azurite stops with the JVM
    }

    /** Counts each request the client sends (retries included) as Get, Insert or Update Entity. */
    private static final class CountingPolicy extends HttpPipelineSyncPolicy {
        private final RequestCounts requests;

        CountingPolicy(RequestCounts requests) {
            this.requests = requests;
        }

        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            String method = context.getHttpRequest().getHttpMethod().toString();
            requests.add(
                    switch (method) {
                        case "GET" -> "Get Entity";
                        case "POST" -> "Insert Entity";
                        case "PUT" -> "Update Entity";
                        default -> method;
                    });
        }
    }
}
