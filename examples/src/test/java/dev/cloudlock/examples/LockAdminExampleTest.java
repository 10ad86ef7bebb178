package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import java.time.Duration;
import java.time.Instant;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

class LockAdminExampleTest {

    @Test
    void theDocumentedReleaseFreesAStuckLockOnceAndThenFindsNothingToRelease() {
        CloudLockProvider provider = new CloudLockProvider(new InMemoryLockStore(), "crashed-node");
        provider.tryLock(new LockConfiguration(Instant.now(), "nightly-report", Duration.ofHours(1), Duration.ZERO))
                .orElseThrow();

        assertThat(LockAdminExample.releaseStuckLock(provider, "nightly-report"))
                .isEqualTo("RELEASED");
        assertThat(LockAdminExample.releaseStuckLock(provider, "nightly-report"))
                .isEqualTo("nothing to release");
    }
}
