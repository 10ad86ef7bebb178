package dev.cloudlock.benchmarks;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Cosmos DB provider on {@code @vercel/cosmosdb-server} behind our launcher (TLS validated through the trust
 * store the build points {@code javax.net.ssl.trustStore} at), with requests counted by the launcher, by kind.
 */
final class CosmosTarget implements LockCycleBenchmark.Target {

    /** Cosmos DB serverless: USD per million request units. */
    static final double RU_PRICE = 0.25;
    /** Assumed request units per write (patch, create) of a lock item under 1 KB, and per point read. */
    static final double WRITE_RU = 10;

    static final double READ_RU = 1;
    private static final Pattern KIND = Pattern.compile("\"([^\"]+)\":(\\d+)");

    private final EmulatorProcess server = Emulators.cosmos();
    private final CosmosClient client;
    private final CosmosContainer container;
    private Map<String, Integer> served = new TreeMap<>();
    private final Map<String, String> floorETags = new java.util.HashMap<>();
    /**
     * Where this target's floor objects live: its own keys, since the emulator outlives it and another target of the
     * same JVM may have created the same names (a first floor write is conditioned on the object being absent).
     */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    CosmosTarget() {
        this("https://127.0.0.1:" + Emulators.cosmos().port());
    }

    /** A client of the launcher at {@code endpoint}: the launcher itself, or a proxy in front of it. */
    CosmosTarget(String endpoint) {
        client = new CosmosClientBuilder()
                .endpoint(endpoint)
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false)
                .contentResponseOnWriteEnabled(true)
                .buildClient();
        client.createDatabaseIfNotExists("bench");
        client.getDatabase("bench")
                .createContainerIfNotExists(
                        new CosmosContainerProperties("shedlock", CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH));
        container = client.getDatabase("bench").getContainer("shedlock");
        drainRequests();
    }

    @Override
    public String name() {
        return "Cosmos DB on @vercel/cosmosdb-server 1.0.1 (our launcher, TLS)";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return CosmosLockProvider.builder()
                .container(container)
                .lockedBy(lockedBy)
                .build();
    }

    /** Requests the launcher served since the last call, by kind (e.g. {@code PATCH item}). */
    @Override
    public Map<String, Integer> drainRequests() {
        String body;
        try {
            body = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.endpoint() + "/cloudlock/requests"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        String byKind = body.substring(body.indexOf("\"byKind\""));
        Map<String, Integer> now = new TreeMap<>();
        Matcher m = KIND.matcher(byKind.substring(byKind.indexOf('{')));
        while (m.find()) {
            now.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        Map<String, Integer> delta = new LinkedHashMap<>();
        now.forEach((kind, n) -> {
            int d = n - served.getOrDefault(kind, 0);
            if (d > 0) {
                delta.put(kind, d);
            }
        });
        served = now;
        return new TreeMap<>(delta);
    }

    /** One replace conditioned on the item's ETag ({@code If-Match}), of a lock-sized item. */
    @Override
    public void floorWrite(String name) {
        String key = floorPrefix + name;
        Map<String, Object> item = Map.of(
                "id",
                key,
                "lockUntil",
                "2000-01-01T00:00:00.000Z",
                "lockedAt",
                "2000-01-01T00:00:00.000Z",
                "lockedBy",
                "bench-host/1234",
                "owner",
                "0f8fad5b-d9cb-469f-a165-70867728950e",
                "fence",
                1);
        String etag = floorETags.get(key);
        floorETags.put(
                key,
                etag == null
                        ? container.upsertItem(item).getETag()
                        : container
                                .replaceItem(
                                        item,
                                        key,
                                        new PartitionKey(key),
                                        new CosmosItemRequestOptions().setIfMatchETag(etag))
                                .getETag());
    }

    @Override
    public void floorRead(String name) {
        String key = floorPrefix + name;
        container.readItem(key, new PartitionKey(key), Map.class);
    }

    @Override
    public double pricePerMillion(String operation) {
        return (operation.startsWith("GET") ? READ_RU : WRITE_RU) * RU_PRICE;
    }

    @Override
    public String prices() {
        return "Cosmos DB serverless: $0.25 per million request units (list price as recorded 2026-11-30). The"
                + " emulator charges no real RUs, so this assumes " + (int) WRITE_RU + " RU per write (patch, create)"
                + " of a lock item under 1 KB and " + (int) READ_RU + " RU per point read: an estimate, not a"
                + " measurement.";
    }

    /** The item as stored, in JSON with its system properties ({@code _rid}, {@code _etag}, {@code _ts}, ...). */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        // The benchmark's names hold no character the item id escapes: the id is the name.
        Map<?, ?> item = container
                .readItem(lockName, new PartitionKey(lockName), Map.class)
                .getItem();
        long bytes;
        try {
            bytes = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(item).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return new LockCycleBenchmark.StoredSize(bytes, "item JSON (" + item.size() + " properties)");
    }

    @Override
    public void close() {
        client.close();
    }
}
