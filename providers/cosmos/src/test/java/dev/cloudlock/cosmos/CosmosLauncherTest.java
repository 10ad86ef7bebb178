package dev.cloudlock.cosmos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Each fix of {@code emulators/cosmos-launcher.js}, shown from the SDK: the behaviour with the fix (the shared
 * server), and the symptom on a server started with that one fix turned off, so each test fails without its fix.
 */
class CosmosLauncherTest {

    private static String fresh(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Runs {@code test} on the lock container of a server of its own with {@code fix} off. */
    private static void withoutFix(String fix, Consumer<CosmosContainer> test) {
        try (EmulatorProcess server = Emulators.startCosmos(List.of(fix))) {
            CosmosClient client = CosmosBackends.client(server);
            try {
                client.createDatabaseIfNotExists(CosmosBackends.DATABASE);
                client.getDatabase(CosmosBackends.DATABASE).createContainerIfNotExists(CosmosBackends.CONTAINER, "/id");
                test.accept(client.getDatabase(CosmosBackends.DATABASE).getContainer(CosmosBackends.CONTAINER));
            } finally {
                client.close();
            }
        }
    }

    @Test
    void readingAMissingItemIs404() {
        CosmosContainer fixed = CosmosBackends.container();
        String id = fresh("missing");
        assertThatThrownBy(() -> fixed.readItem(id, new PartitionKey(id), ObjectNode.class))
                .isInstanceOfSatisfying(
                        CosmosException.class,
                        e -> assertThat(e.getStatusCode()).isEqualTo(404));
        assertThat(CosmosLockProvider.builder().container(fixed).build().store().read("never-taken-" + id))
                .isEmpty();

        withoutFix("missing-item-404", broken -> {
            assertThatThrownBy(() -> broken.readItem(id, new PartitionKey(id), ObjectNode.class))
                    .isInstanceOfSatisfying(
                            CosmosException.class,
                            e -> assertThat(e.getStatusCode()).isEqualTo(500));
            assertThatThrownBy(() -> CosmosLockProvider.builder()
                            .container(broken)
                            .build()
                            .store()
                            .read(id))
                    .isInstanceOf(LockStoreException.class);
        });
    }

    @Test
    void patchFilterPredicatesKeepTheirCase() {
        String past = "2000-01-01T00:00:00.000Z";
        CosmosContainer fixed = CosmosBackends.container();
        String id = fresh("Filter");
        create(fixed, id, past);
        assertThat(patchIfFree(fixed, id).getStatusCode()).isEqualTo(200);

        withoutFix("patch-filter-case", broken -> {
            create(broken, id, past);
            assertThatThrownBy(() -> patchIfFree(broken, id))
                    .isInstanceOfSatisfying(
                            CosmosException.class,
                            e -> assertThat(e.getStatusCode()).isEqualTo(412));
            // What it means for locks: the lower-cased c.lockuntil is never defined, so the acquire predicate
            // (lockUntil absent or passed) always holds and a held lock is taken a second time.
            CloudLockProvider provider =
                    CosmosLockProvider.builder().container(broken).build();
            LockConfiguration held =
                    new LockConfiguration(Instant.now(), fresh("held"), Duration.ofMinutes(1), Duration.ZERO);
            provider.lock(held).orElseThrow();
            assertThat(provider.lock(held))
                    .as("second acquisition of a held lock without the fix")
                    .isPresent();
        });
        CloudLockProvider provider =
                CosmosLockProvider.builder().container(fixed).build();
        LockConfiguration held =
                new LockConfiguration(Instant.now(), fresh("held"), Duration.ofMinutes(1), Duration.ZERO);
        provider.lock(held).orElseThrow();
        assertThat(provider.lock(held)).as("second acquisition of a held lock").isEmpty();
    }

    private static void create(CosmosContainer container, String id, String lockUntil) {
        container.createItem(JsonNodeFactory.instance.objectNode().put("id", id).put("lockUntil", lockUntil));
    }

    private static com.azure.cosmos.models.CosmosItemResponse<ObjectNode> patchIfFree(
            CosmosContainer container, String id) {
        return container.patchItem(
                id,
                new PartitionKey(id),
                CosmosPatchOperations.create().set("/lockUntil", "2999-01-01T00:00:00.000Z"),
                new CosmosPatchItemRequestOptions()
                        .setFilterPredicate("FROM c WHERE c.lockUntil <= '" + Instant.now() + "'"),
                ObjectNode.class);
    }

    @Test
    void queriesGetAPassThroughQueryPlan() {
        String kind = fresh("plan");
        CosmosContainer fixed = CosmosBackends.container();
        createKind(fixed, kind, "p1", "p2");
        assertThat(idsOfKind(fixed, kind, null)).containsExactlyInAnyOrder("p1-" + kind, "p2-" + kind);

        withoutFix("query-plan", broken -> {
            createKind(broken, kind, "p1", "p2");
            assertThatThrownBy(() -> idsOfKind(broken, kind, null)).isInstanceOf(RuntimeException.class);
        });
    }

    @Test
    void singlePartitionQueriesSeeOnlyTheirPartition() {
        String kind = fresh("partition");
        CosmosContainer fixed = CosmosBackends.container();
        createKind(fixed, kind, "a", "b");
        assertThat(idsOfKind(fixed, kind, "a-" + kind)).containsExactly("a-" + kind);

        withoutFix("partition-filter", broken -> {
            createKind(broken, kind, "a", "b");
            assertThat(idsOfKind(broken, kind, "a-" + kind)).containsExactlyInAnyOrder("a-" + kind, "b-" + kind);
        });
    }

    private static void createKind(CosmosContainer container, String kind, String... prefixes) {
        for (String prefix : prefixes) {
            container.createItem(JsonNodeFactory.instance
                    .objectNode()
                    .put("id", prefix + "-" + kind)
                    .put("kind", kind));
        }
    }

    private static List<String> idsOfKind(CosmosContainer container, String kind, String partitionKey) {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        if (partitionKey != null) {
            options.setPartitionKey(new PartitionKey(partitionKey));
        }
        // IS_DEFINED(c.id) names the partition key path, which the package demands of a single-partition query
        return container
                .queryItems(
                        "SELECT * FROM c WHERE c.kind = '" + kind + "' AND IS_DEFINED(c.id)", options, ObjectNode.class)
                .stream()
                .map(item -> item.get("id").asText())
                .collect(Collectors.toList());
    }
}
