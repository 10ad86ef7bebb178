package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.spi.LockFields;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The provider contract on one DynamoDB backend: its lock table, a table it does not have, and a closed port. */
abstract class DynamoDbContract extends LockProviderContract {

    /** The client of the backend under test. */
    protected abstract DynamoDbClient client();

    /** The endpoint of the backend under test. */
    protected abstract String endpoint();

    /** A fault-injecting proxy in front of a backend, and a client of it. */
    private record OnWire(WireFaultProxy proxy, DynamoDbClient client) {}

    /** One per backend in this test JVM: the classes on one backend share it (it is healed after every test). */
    private static final Map<String, OnWire> WIRES = new ConcurrentHashMap<>();

    private OnWire onWire() {
        return WIRES.computeIfAbsent(endpoint(), endpoint -> {
            WireFaultProxy proxy = WireFaultProxy.http(
                    WireFaultProxy.Store.DYNAMODB,
                    new WireFaults(),
                    URI.create(endpoint).getPort());
            return new OnWire(proxy, DynamoDbBackends.client(proxy.url()));
        });
    }

    /**
     * A missing table, a never-answering endpoint and stray items on every class. The partition-key class of a
     * backend runs the wire cases and the contract's contended run (8 x 40); a sort-key class has no wire, since the
     * key layout changes nothing that crosses it, and runs 4 x 50 holdings: the conditional writes race under both
     * layouts, and the full run on one layout per backend is enough.
     */
    @Override
    protected StoreCapabilities capabilities() {
        StoreCapabilities.Builder capabilities = StoreCapabilities.builder()
                .misconfiguredProvider(() -> builder(client())
                        .tableName(DynamoDbBackends.MISSING_TABLE)
                        .build())
                .silentProvider(this::silentProvider)
                .strayRecordWriter(this::writeStrayRecord)
                .expiryReader(this::readExpiry);
        if (sortKey() == null) {
            capabilities.wire(onWire().proxy().faults(), this::providerOnWire).stoppableProvider(this::stoppable);
        } else {
            capabilities.contention(4, 50);
        }
        return capabilities.build();
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return builder(onWire().client())
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    private void writeStrayRecord(String name) {
        Map<String, AttributeValue> item = new HashMap<>();
        DynamoDbLockStore.SortKey sortKey = sortKey();
        item.put(
                sortKey == null ? DynamoDbLockProvider.DEFAULT_PARTITION_KEY : DynamoDbBackends.SORT_KEY_TABLE_PK,
                AttributeValue.fromS(name));
        if (sortKey != null) {
            item.put(sortKey.name(), AttributeValue.fromS(sortKey.value()));
        }
        item.put("fence", AttributeValue.fromS("another tool's counter"));
        client().putItem(b -> b.tableName(table()).item(item));
    }

    /** The item's TTL attribute, read with the SDK: epoch seconds. */
    private Optional<Instant> readExpiry(String name) {
        Map<String, AttributeValue> key = new HashMap<>();
        DynamoDbLockStore.SortKey sortKey = sortKey();
        key.put(
                sortKey == null ? DynamoDbLockProvider.DEFAULT_PARTITION_KEY : DynamoDbBackends.SORT_KEY_TABLE_PK,
                AttributeValue.fromS(name));
        if (sortKey != null) {
            key.put(sortKey.name(), AttributeValue.fromS(sortKey.value()));
        }
        Map<String, AttributeValue> item = client().getItem(
                        b -> b.tableName(table()).key(key).consistentRead(true))
                .item();
        return Optional.ofNullable(item.get(LockFields.EXPIRES_AT))
                .map(ttl -> Instant.ofEpochSecond(Long.parseLong(ttl.n())));
    }

    /** The sort key of the lock table under test; {@code null} for ShedLock's layout (partition key only). */
    protected DynamoDbLockStore.@Nullable SortKey sortKey() {
        return null;
    }

    /** A builder on the backend's lock table in the layout under test. */
    protected DynamoDbLockProvider.Builder builder(DynamoDbClient client) {
        DynamoDbLockStore.SortKey sortKey = sortKey();
        DynamoDbLockProvider.Builder builder =
                DynamoDbLockProvider.builder().client(client).tableName(table());
        return sortKey == null
                ? builder
                : builder.partitionKey(DynamoDbBackends.SORT_KEY_TABLE_PK).sortKey(sortKey.name(), sortKey.value());
    }

    /** The lock table of the layout under test. */
    protected String table() {
        return sortKey() == null ? DynamoDbBackends.TABLE : DynamoDbBackends.SORT_KEY_TABLE;
    }

    /** Wipes the backend's lock table and creates it in the layout under test. */
    protected void resetTable(DynamoDbClient client) {
        DynamoDbBackends.deleteTable(client, table());
        builder(client).build().admin().init();
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return builder(client()).lockedBy(lockedBy).build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return builder(DynamoDbBackends.deadClient()).build();
    }

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on the backend through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(URI.create(endpoint()).getPort());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the SDK's default settings, as an application might build it, on {@code endpoint}. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint.url("http")))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        return builder(client)
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
