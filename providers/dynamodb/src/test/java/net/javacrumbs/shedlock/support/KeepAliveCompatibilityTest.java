package net.javacrumbs.shedlock.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * ShedLock's {@link KeepAliveLockProvider} over our provider: it extends the lease every lockAtMostFor / 2 through
 * {@code SimpleLock.extend}, so a job running longer than lockAtMostFor keeps its lock, and releases through the
 * handle extend returned. (In ShedLock's package only to reach the constructor that lowers its 30 s minimum, so the
 * test takes seconds, not minutes.)
 */
class KeepAliveCompatibilityTest {

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();
    private static final DynamoDbClient CLIENT = DynamoDbClient.builder()
            .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();

    @AfterAll
    static void stop() {
        SCHEDULER.shutdownNow();
    }

    private static CloudLockProvider provider(String lockedBy) {
        DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("keepalive")
                .build()
                .admin()
                .init();
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("keepalive")
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofSeconds(8), Duration.ZERO);
    }

    @Test
    void keepAliveExtendsOurLeasePastLockAtMostForAndReleases() throws InterruptedException {
        String name = "keepalive-" + System.nanoTime();
        KeepAliveLockProvider keepAlive =
                new KeepAliveLockProvider(provider("long-job"), SCHEDULER, Duration.ofMillis(500));
        Optional<SimpleLock> lock = keepAlive.lock(config(name));
        assertThat(lock).isPresent();
        // the control: the same lock taken at the same time without the keep-alive
        String plain = name + "-plain";
        assertThat(provider("long-job").lock(config(plain))).isPresent();

        // Past the end of the lease lockAtMostFor alone gave, the lock must still be ours: the keep-alive's first
        // extension is due halfway (4 s in), so it may run up to 4 s late on a loaded machine before the lease ends.
        Instant first = provider("reader").admin().show(name).orElseThrow().lockUntil();
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), first).toMillis()) + 1_000);
        assertThat(provider("other").lock(config(name)))
                .as("while kept alive, past lockAtMostFor")
                .isEmpty();

        lock.get().unlock();
        assertThat(provider("other").lock(config(name)))
                .as("after the keep-alive lock's release")
                .isPresent();
    }
}
