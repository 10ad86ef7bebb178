package dev.cloudlock.cosmos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.ClockSkewMonitor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Cosmos DB specifics on the launcher-started server: requests per operation (counted by the launcher), the item
 * layout and ids, the skew monitor fed by {@code _ts}, errors that name their cause, and TLS validation.
 */
class CosmosLockStoreTest {

    private static CloudLockProvider provider(String lockedBy) {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name, Duration lockAtMostFor) {
        return new LockConfiguration(Instant.now(), name, lockAtMostFor, Duration.ZERO);
    }

    private static String fresh(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Runs {@code operation} and returns how many requests the server served meanwhile. */
    private static <T> long requests(Supplier<T> operation) {
        EmulatorProcess server = Emulators.cosmos();
        long before = CosmosBackends.requestsServed(server);
        operation.get();
        return CosmosBackends.requestsServed(server) - before;
    }

    @Test
    void oneRequestPerAcquireReleaseAndExtend() {
        CloudLockProvider a = provider("a");
        a.tryLock(config(fresh("warm-up"), Duration.ofMinutes(1))).orElseThrow().unlock(); // metadata caches
        String name = fresh("requests");

        long first =
                requests(() -> a.tryLock(config(name, Duration.ofMinutes(1))).orElseThrow());
        assertThat(first).as("first acquisition ever: patch (404) + create").isEqualTo(2);
        boolean[] refused = new boolean[1];
        assertThat(requests(() -> refused[0] =
                        a.tryLock(config(name, Duration.ofMinutes(1))).isEmpty()))
                .as("refused while held: patch (412) + core's read of the holder")
                .isEqualTo(2);
        assertThat(refused[0]).isTrue();

        FencedLock[] held = new FencedLock[1];
        String steady = fresh("steady");
        a.tryLock(config(steady, Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(requests(() -> held[0] =
                        a.tryLock(config(steady, Duration.ofMinutes(1))).orElseThrow()))
                .as("acquire of an existing, free lock")
                .isEqualTo(1);
        assertThat(requests(() -> held[0] = (FencedLock)
                        held[0].extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow()))
                .as("extend")
                .isEqualTo(1);
        assertThat(requests(() -> {
                    held[0].unlock();
                    return null;
                }))
                .as("release")
                .isEqualTo(1);
    }

    @Test
    void itemLayoutAndIds() {
        String name = fresh("Reports/daily?#\\%");
        FencedLock lock =
                provider("host-1").tryLock(config(name, Duration.ofMinutes(1))).orElseThrow();
        String id = CosmosItemIds.encode(name);
        assertThat(id).startsWith("Reports%2Fdaily%3F%23%5C%25-").doesNotContain("/", "\\", "?", "#");
        ObjectNode item = CosmosBackends.container()
                .readItem(id, new PartitionKey(id), ObjectNode.class)
                .getItem();
        assertThat(item.get("lockedBy").asText()).isEqualTo("host-1");
        assertThat(item.get("fence").asLong()).isEqualTo(lock.fencingToken()).isEqualTo(1);
        assertThat(item.get("lockUntil").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(item.get("lockedAt").asText()).hasSize(24);
        assertThat(item.get("owner").asText()).isNotBlank();
        lock.unlock();
        assertThat(provider("host-2")
                        .tryLock(config(name, Duration.ofMinutes(1)))
                        .orElseThrow()
                        .fencingToken())
                .isEqualTo(2);

        assertThat(CosmosItemIds.encode("a%2Fb")).isNotEqualTo(CosmosItemIds.encode("a/b"));
        assertThat(CosmosItemIds.encode("Job")).isNotEqualTo(CosmosItemIds.encode("job"));
        assertThat(CosmosItemIds.encode("日本語-ジョブ")).isEqualTo("日本語-ジョブ");
        // Not NFC: the SDK's URL would normalize the id to the composed name's; escaped, it is ASCII and its own.
        assertThat(CosmosItemIds.encode("\u00E9t\u00E9")).isEqualTo("\u00E9t\u00E9");
        assertThat(CosmosItemIds.encode("e\u0301te\u0301")).isEqualTo("e%u0301te%u0301");
        assertThat(CosmosItemIds.encode("%u0301")).isEqualTo("%25u0301");
        assertThatThrownBy(() -> provider("a").tryLock(config("e" + "\u0301".repeat(200), Duration.ofMinutes(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1023");
        assertThatThrownBy(() -> provider("a").tryLock(config("bad-\uD800-surrogate", Duration.ofMinutes(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
        String longest = "/".repeat(255);
        provider("a")
                .tryLock(config(longest, Duration.ofMinutes(1)))
                .orElseThrow()
                .unlock();
        assertThat(CosmosItemIds.encode(longest)).hasSize(765);
    }

    @Test
    void theStoresClockIsFedByEveryResponsesDateAndTheServerTimeOfOurWrites() {
        CloudLockProvider provider = provider("a");
        ClockSkewMonitor monitor = provider.store().clockSkewMonitor().orElseThrow();
        assertThat(monitor.estimate()).isEmpty();
        provider.tryLock(config(fresh("skew"), Duration.ofMinutes(1)))
                .orElseThrow()
                .unlock();
        ClockSkewMonitor.Estimate estimate = monitor.estimate().orElseThrow();
        assertThat(estimate.samples())
                .as("the Date of the first call's read, the patch (404), the create and the release, and the _ts of"
                        + " the two items written")
                .isEqualTo(6);
        assertThat(estimate.certainlyExceeds(Duration.ZERO))
                .as("same machine: %s", estimate)
                .isFalse();
    }

    @Test
    void missingContainerAndDatabaseAreNamedErrors() {
        CosmosClient client = CosmosBackends.client(Emulators.cosmos());
        CosmosBackends.container(); // the database exists
        CosmosContainer noContainer =
                client.getDatabase(CosmosBackends.DATABASE).getContainer("no-such-container");
        assertThatThrownBy(() -> CosmosLockProvider.builder()
                        .container(noContainer)
                        .build()
                        .tryLock(config(fresh("x"), Duration.ofMinutes(1))))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("no-such-container")
                .isInstanceOf(LockStoreConfigurationException.class);
        CosmosContainer noDatabase = client.getDatabase("no-such-database").getContainer(CosmosBackends.CONTAINER);
        assertThatThrownBy(() -> CosmosLockProvider.builder()
                        .container(noDatabase)
                        .build()
                        .store()
                        .read("x"))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("does not exist")
                .isInstanceOf(LockStoreConfigurationException.class);
        client.close();
    }

    @Test
    void unreachableEndpointIsANamedError() {
        CloudLockProvider down = CosmosLockProvider.builder()
                .container(CosmosBackends.unreachableContainer())
                .build();
        assertThatThrownBy(() -> down.tryLock(config(fresh("down"), Duration.ofMinutes(1))))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("could not be reached")
                .isInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void invalidConfigurationIsRejected() {
        CosmosContainer container = CosmosBackends.container();
        assertThatThrownBy(() -> CosmosLockProvider.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("container");
        assertThatThrownBy(() -> CosmosLockProvider.builder()
                        .container(container)
                        .partitionKeyPath("/a/b")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("top-level");
        assertThatThrownBy(() -> CosmosLockProvider.builder()
                        .container(container)
                        .partitionKeyPath("/owner")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field of the lock record");
    }

    @Test
    void aCustomPartitionKeyPathHoldsTheId() {
        CosmosBackends.container();
        CosmosClient client = CosmosBackends.client(Emulators.cosmos());
        client.getDatabase(CosmosBackends.DATABASE).createContainerIfNotExists("locks-by-pk", "/pk");
        CosmosContainer container = client.getDatabase(CosmosBackends.DATABASE).getContainer("locks-by-pk");
        CloudLockProvider provider = CosmosLockProvider.builder()
                .container(container)
                .partitionKeyPath("/pk")
                .build();
        String name = fresh("custom-pk");
        provider.tryLock(config(name, Duration.ofMinutes(1))).orElseThrow().unlock();
        ObjectNode item = container
                .readItem(name, new PartitionKey(name), ObjectNode.class)
                .getItem();
        assertThat(item.get("pk").asText()).isEqualTo(name);
        assertThat(provider.tryLock(config(name, Duration.ofMinutes(1)))).isPresent();
        client.close();
    }

    /**
     * On the emulator a container partitioned by another path than the provider's takes the writes and never returns
     * them to a point read (the control), so {@code check} saw only "the record read back is absent": its layout step
     * now reads the container's partition key path and names it.
     */
    @Test
    void checkNamesAContainerPartitionedByAnotherPath() {
        CosmosBackends.container();
        CosmosClient client = CosmosBackends.client(Emulators.cosmos());
        client.getDatabase(CosmosBackends.DATABASE).createContainerIfNotExists("locks-by-tenant", "/tenant");
        CosmosContainer container = client.getDatabase(CosmosBackends.DATABASE).getContainer("locks-by-tenant");
        CloudLockProvider byId =
                CosmosLockProvider.builder().container(container).build();

        String name = fresh("wrong-path");
        FencedLock taken = byId.tryLock(config(name, Duration.ofMinutes(1))).orElseThrow();
        assertThat(byId.store().read(name))
                .as("control: the emulator took the write and a point read does not find it")
                .isEmpty();
        taken.unlock();

        StoreCheck.Result result = StoreCheck.run(byId, new StoreCheck.Options(2, 10, Duration.ofMillis(200)));
        assertThat(result.storeFailure()).isEqualTo(StoreCheck.StoreFailure.SETUP);
        assertThat(result.checks().get(0).status()).isEqualTo(StoreCheck.Status.FAILED);
        assertThat(result.checks().get(0).detail())
                .contains("Cosmos DB container 'locks-by-tenant' is partitioned by [/tenant], not /id")
                .contains("set the partition key path to /tenant");

        CloudLockProvider byTenant = CosmosLockProvider.builder()
                .container(container)
                .partitionKeyPath("/tenant")
                .build();
        assertThat(StoreCheck.run(byTenant, new StoreCheck.Options(2, 10, Duration.ofMillis(200)))
                        .checks()
                        .get(0)
                        .status())
                .as("the same container with its own path")
                .isEqualTo(StoreCheck.Status.PASSED);
        client.close();
    }

    @Test
    void theSdkValidatesTheServersCertificate() throws Exception {
        Path dir = Files.createTempDirectory("cloudlock-untrusted-");
        Path keyStore = dir.resolve("untrusted.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "untrusted",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=localhost",
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-validity",
                        "7",
                        "-keystore",
                        keyStore.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "untrusted")
                .inheritIO()
                .start();
        assertThat(keytool.waitFor()).isZero();
        Path launcher = Emulators.emulatorsDir().resolve("cosmos-launcher.js");
        try (EmulatorProcess untrusted = EmulatorProcess.start(
                "cosmos-untrusted",
                port -> List.of(
                        "node",
                        launcher.toString(),
                        "--port",
                        Integer.toString(port),
                        "--pfx",
                        keyStore.toString(),
                        "--passphrase",
                        "untrusted"),
                "/",
                Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> CosmosBackends.builder("https://127.0.0.1:" + untrusted.port())
                            .buildClient())
                    .hasStackTraceContaining("SSLHandshakeException")
                    .hasStackTraceContaining("PKIX path validation failed");
        }
    }
}
