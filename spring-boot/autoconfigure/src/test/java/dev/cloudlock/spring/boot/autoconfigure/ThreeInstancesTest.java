package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Three instances of one application, each with the starter, run a {@code @Scheduled} job. */
class ThreeInstancesTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static final int TICKS = 3;
    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeEach
    void forgetEarlierRuns() {
        TickingApp.RUNS_PER_TICK.clear();
    }

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
        instances.clear();
    }

    @Test
    void threeInstancesOnOneDynamoDbTableRunTheJobOncePerTick() throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("ticking-locks")
                    .build()
                    .admin()
                    .init();
        }
        startThree(Map.of(
                "spring.cloud.aws.dynamodb.endpoint", Emulators.moto().endpoint(),
                "cloudlock.store", "dynamodb",
                "cloudlock.dynamodb.table-name", "ticking-locks"));

        Map<Long, Integer> runs = completedTicks();

        assertThat(runs)
                .hasSizeGreaterThanOrEqualTo(TICKS)
                .allSatisfy((tick, count) ->
                        assertThat(count).as("runs of tick %s", tick).isEqualTo(1));
    }

    @Test
    void threeInstancesEachWithItsOwnInMemoryStoreRunATickMoreThanOnce() throws InterruptedException {
        // negative control: the same three instances without a shared store
        startThree(Map.of("cloudlock.store", "in-memory"));

        Map<Long, Integer> runs = completedTicks();

        assertThat(runs.values()).anySatisfy(count -> assertThat(count).isGreaterThan(1));
    }

    private void startThree(Map<String, Object> properties) {
        for (int i = 1; i <= 3; i++) {
            Map<String, Object> instance = new HashMap<>(properties);
            instance.put("cloudlock.locked-by", "instance-" + i);
            instance.put("spring.main.web-application-type", "none");
            instances.add(StarterApps.start(TickingApp.class, instance));
        }
    }

    /**
     * The runs per tick once {@value #TICKS} ticks have passed with all three instances up, the tick in progress
     * excluded.
     */
    private static Map<Long, Integer> completedTicks() throws InterruptedException {
        long first = System.currentTimeMillis() / 1000 / 2 + 1; // the first tick with every instance running
        while (System.currentTimeMillis() / 1000 / 2 < first + TICKS) {
            Thread.sleep(200);
        }
        Map<Long, Integer> runs = new HashMap<>();
        for (Map.Entry<Long, AtomicInteger> e : TickingApp.RUNS_PER_TICK.entrySet()) {
            if (e.getKey() >= first && e.getKey() < first + TICKS) {
                runs.put(e.getKey(), e.getValue().get());
            }
        }
        return runs;
    }
}
