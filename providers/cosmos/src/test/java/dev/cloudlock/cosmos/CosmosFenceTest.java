package dev.cloudlock.cosmos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Fenced writes to a job's own container on the Cosmos DB emulator, the lock taken by two real providers. */
class CosmosFenceTest extends StaleHolderCases {

    private static final CosmosContainer REPORTS = reports();

    private final String id = "nightly-" + UUID.randomUUID();
    private final PartitionKey key = new PartitionKey(id);
    private final CosmosFence fence = CosmosFence.inProperty();

    private static CosmosContainer reports() {
        CosmosBackends.container(); // the database exists
        var database = CosmosBackends.client(Emulators.cosmos()).getDatabase(CosmosBackends.DATABASE);
        database.createContainerIfNotExists(new CosmosContainerProperties("reports", "/id"));
        return database.getContainer("reports");
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    private ObjectNode item(String body) {
        return JsonNodeFactory.instance.objectNode().put("id", id).put("body", body);
    }

    private @Nullable String body() {
        try {
            return REPORTS.readItem(id, key, ObjectNode.class)
                    .getItem()
                    .get("body")
                    .asText();
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    private final StaleHolderScenario.Sink upsert = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) {
            fence.upsert(REPORTS, item(value), key, token);
        }

        @Override
        public void writeUnfenced(String value) {
            REPORTS.upsertItem(item(value), key, null);
        }

        @Override
        public @Nullable String read() {
            return body();
        }
    };

    private final StaleHolderScenario.Sink patch = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) {
            if (body() == null) {
                REPORTS.createItem(item("empty"), key, null);
            }
            fence.patch(REPORTS, id, key, CosmosPatchOperations.create().set("/body", value), token, ObjectNode.class);
        }

        @Override
        public void writeUnfenced(String value) {
            REPORTS.upsertItem(item(value), key, null);
        }

        @Override
        public @Nullable String read() {
            return body();
        }
    };

    @Test
    void requestsPerFencedWrite() {
        fence.upsert(REPORTS, item("first"), key, 7);
        long before = CosmosBackends.requestsServed(Emulators.cosmos());
        fence.upsert(REPORTS, item("second"), key, 8);
        long upserted = CosmosBackends.requestsServed(Emulators.cosmos());
        fence.patch(REPORTS, id, key, CosmosPatchOperations.create().set("/body", "third"), 8, ObjectNode.class);
        long patched = CosmosBackends.requestsServed(Emulators.cosmos());
        assertThatThrownBy(() -> fence.patch(
                        REPORTS, id, key, CosmosPatchOperations.create().set("/body", "stale"), 7, ObjectNode.class))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("container 'reports', item '" + id + "'");
        long refused = CosmosBackends.requestsServed(Emulators.cosmos());
        assertThat(upserted - before).as("an upsert: read, replace If-Match").isEqualTo(2);
        assertThat(patched - upserted).as("a conditional patch").isEqualTo(1);
        assertThat(refused - patched)
                .as("a refused patch: the patch, the read that says why")
                .isEqualTo(2);
        assertThat(body()).isEqualTo("third");
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return upsert;
    }

    /** The same scenario through {@code patchItem}. */
    @Nested
    class ThroughPatch extends StaleHolderCases {
        @Override
        protected CloudLockProvider provider(String lockedBy) {
            return CosmosFenceTest.this.provider(lockedBy);
        }

        @Override
        protected StaleHolderScenario.Sink sink() {
            return patch;
        }
    }

    /** Writes the item with the body {@code planted} and {@code fence} in its fence property, as JSON of its kind. */
    private void plant(HostileFenceCases.Planted fence) {
        String text = fence.text();
        ObjectNode item = item("planted");
        switch (fence) {
            case TOKEN_5, TOKEN_12 -> item.put(CosmosFence.DEFAULT_PROPERTY, Long.parseLong(text));
            case TEXT -> item.put(CosmosFence.DEFAULT_PROPERTY, text);
            case FRACTION -> item.put(CosmosFence.DEFAULT_PROPERTY, Double.parseDouble(text));
            case BEYOND_RANGE -> item.put(CosmosFence.DEFAULT_PROPERTY, new java.math.BigInteger(text));
        }
        REPORTS.upsertItem(item, key, null);
    }

    /** Fence properties another tool wrote, under an upsert: a string, 9.5, 10^25. */
    @Nested
    class HostileFencesThroughUpsert extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) {
            CosmosFenceTest.this.plant(fence);
            return upsert;
        }
    }

    /** The same under a conditional patch, whose predicate the store evaluates. */
    @Nested
    class HostileFencesThroughPatch extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) {
            CosmosFenceTest.this.plant(fence);
            return patch;
        }
    }
}
