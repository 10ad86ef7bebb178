package dev.cloudlock.cosmos;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;

/**
 * The provider contract on {@code @vercel/cosmosdb-server} behind our launcher, over TLS with certificate
 * validation on. The contended run is 8 threads x 40 holdings on one name.
 */
class CosmosContractTest extends LockProviderContract {

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    /**
     * A fault-injecting proxy in front of the launcher, over TLS with the launcher's own certificate, and a client of
     * it: one per test JVM (healed after every test).
     */
    private static final class OnWire {
        static final WireFaultProxy PROXY = WireFaultProxy.https(
                WireFaultProxy.Store.COSMOS,
                new WireFaults(),
                Emulators.cosmos().port(),
                Emulators.cosmosKeyStore(),
                Emulators.COSMOS_TLS_PASSWORD.toCharArray());
        static final CosmosContainer CONTAINER;

        static {
            CosmosBackends.container(); // the database and container exist
            CONTAINER = CosmosBackends.builder(PROXY.url())
                    .buildClient()
                    .getDatabase(CosmosBackends.DATABASE)
                    .getContainer(CosmosBackends.CONTAINER);
        }
    }

    /** A missing container, a never-answering endpoint, stray items and the wire through the proxy. */
    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder()
                .misconfiguredProvider(this::misconfiguredProvider)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .wire(OnWire.PROXY.faults(), this::providerOnWire)
                .strayRecordWriter(this::writeStrayRecord)
                .expiryReader(CosmosContractTest::readExpiry)
                .build();
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return CosmosLockProvider.builder()
                .container(OnWire.CONTAINER)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    private void writeStrayRecord(String name) {
        com.fasterxml.jackson.databind.node.ObjectNode item =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        item.put("id", name).put("lockUntil", "next Tuesday");
        CosmosBackends.container().createItem(item);
    }

    /** When Cosmos DB expires the item: its {@code ttl} seconds after its last write ({@code _ts}). */
    private static java.util.Optional<java.time.Instant> readExpiry(String name) {
        String id = CosmosItemIds.encode(name);
        com.fasterxml.jackson.databind.node.ObjectNode item;
        try {
            item = CosmosBackends.container()
                    .readItem(
                            id,
                            new com.azure.cosmos.models.PartitionKey(id),
                            com.fasterxml.jackson.databind.node.ObjectNode.class)
                    .getItem();
        } catch (com.azure.cosmos.CosmosException e) {
            if (e.getStatusCode() == 404) {
                return java.util.Optional.empty();
            }
            throw e;
        }
        if (!item.has(CosmosLockStore.TTL)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(java.time.Instant.ofEpochSecond(
                item.get("_ts").asLong() + item.get(CosmosLockStore.TTL).asLong()));
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.unreachableContainer())
                .build();
    }

    private CloudLockProvider misconfiguredProvider() {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.missingContainer())
                .build();
    }

    private static final List<AutoCloseable> SILENT = new CopyOnWriteArrayList<>();

    @AfterAll
    static void closeSilentEndpoints() throws Exception {
        for (AutoCloseable closeable : SILENT) {
            closeable.close();
        }
    }

    /**
     * The SDK talks to its endpoint while the client is built, so the client is built (and its container's metadata
     * read) through an endpoint that forwards to the launcher, over TLS, and then goes silent: requests on open
     * connections get no answer and new connections never complete their TLS handshake.
     */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        SilentEndpoint endpoint = SilentEndpoint.forwardingTo(Emulators.cosmos().port());
        CloudLockProvider provider = providerAt(endpoint, callTimeout == null ? Duration.ofDays(1) : callTimeout);
        endpoint.silence();
        return provider;
    }

    /** A provider on the launcher through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint = SilentEndpoint.forwardingTo(Emulators.cosmos().port());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client of the test's settings on {@code endpoint}, its container's metadata read while it still answers. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, Duration callTimeout) {
        CosmosBackends.container(); // the database and container exist
        SILENT.add(endpoint);
        CosmosClient client = CosmosBackends.builder(endpoint.url("https")).buildClient();
        SILENT.add(client);
        CosmosContainer container = client.getDatabase(CosmosBackends.DATABASE).getContainer(CosmosBackends.CONTAINER);
        container.read(); // warm: metadata cached while the endpoint still answers
        return CosmosLockProvider.builder()
                .container(container)
                .callTimeout(callTimeout)
                .build();
    }
}
