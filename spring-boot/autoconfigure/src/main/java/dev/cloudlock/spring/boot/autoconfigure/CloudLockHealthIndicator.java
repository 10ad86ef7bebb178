package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.spi.ClockSkewMonitor;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The lock store's health: UP when a read of one record ({@value CloudLockAutoConfiguration#PROBE_NAME}) answers
 * within the store's call deadline ({@code cloudlock.call-timeout}) and, for stores that estimate the store's clock,
 * this machine's clock is not certainly further from it than the tolerance; DOWN, with the store's message, when the
 * read fails or the clocks certainly differ by more. Skew never makes a lock unsafe (leases are judged on the store's
 * clock) but it moves the times jobs and {@code LockConfiguration}s are given, so it is reported here.
 */
public class CloudLockHealthIndicator implements HealthIndicator {

    private final CloudLockProvider provider;
    private final String store;

    /**
     * @param provider the provider whose store is checked
     * @param store the store's name, for the details
     */
    public CloudLockHealthIndicator(CloudLockProvider provider, String store) {
        this.provider = provider;
        this.store = store;
    }

    @Override
    public Health health() {
        Health.Builder health = Health.up().withDetail("store", store);
        long start = System.nanoTime();
        try {
            provider.store().read(CloudLockAutoConfiguration.PROBE_NAME);
        } catch (LockStoreException e) {
            return Health.down()
                    .withDetail("store", store)
                    .withDetail("error", e.getClass().getSimpleName() + ": " + e.getMessage())
                    .build();
        }
        health.withDetail("readMillis", (System.nanoTime() - start) / 1_000_000);
        Optional<ClockSkewMonitor> monitor = provider.store().clockSkewMonitor();
        Optional<ClockSkewMonitor.Estimate> estimate = monitor.flatMap(ClockSkewMonitor::estimate);
        if (monitor.isPresent() && estimate.isPresent()) {
            ClockSkewMonitor.Estimate skew = estimate.get();
            health.withDetail("clockSkewMillis", skew.offset().toMillis())
                    .withDetail("clockSkewErrorMillis", skew.errorBound().toMillis())
                    .withDetail(
                            "clockSkewToleranceMillis",
                            monitor.get().tolerance().toMillis());
            if (skew.certainlyExceeds(monitor.get().tolerance())) {
                return health.down()
                        .withDetail(
                                "error",
                                "This machine's clock differs from the store's by more than the tolerance: check NTP")
                        .build();
            }
        }
        return health.build();
    }
}
