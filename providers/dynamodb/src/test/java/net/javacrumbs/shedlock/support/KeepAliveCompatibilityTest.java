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
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMillis(2500), Duration.ZERO);
    }

    @Test
    void keepAliveExtendsOurLeasePastLockAtMostForAndReleases() throws InterruptedException {
        String name = "keepalive-" + System.nanoTime();
        KeepAliveLockProvider keepAlive =
                new KeepAliveLockProvider(provider("long-job"), SCHEDULER, Duration.ofMillis(500));
        Optional<SimpleLock> lock = keepAlive.lock(config(name));
        assertThat(lock).isPresent();

        // Evidence, not a sleep: wait (on the stored record) until the keep-alive has pushed the lease past where
        // lockAtMostFor alone would have ended it; the lease then runs another lockAtMostFor from that extension, so
        // the check right after does not depend on how late the scheduler ran.
        CloudLockProvider reader = provider("reader");
        Instant first = reader.admin().show(name).orElseThrow().lockUntil();
        Instant deadline = Instant.now().plusSeconds(60);
        while (!reader.admin().show(name).orElseThrow().lockUntil().isAfter(first.plusMillis(2500))) {
            assertThat(Instant.now())
                    .as("the keep-alive extended the lease within a minute")
                    .isBefore(deadline);
            Thread.sleep(50);
        }
        assertThat(provider("other").lock(config(name))).as("while kept alive").isEmpty();

        lock.get().unlock();
        assertThat(provider("other").lock(config(name)))
                .as("after the keep-alive lock's release")
                .isPresent();
    }
}
