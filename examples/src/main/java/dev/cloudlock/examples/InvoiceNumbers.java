package dev.cloudlock.examples;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockedRun;
import dev.cloudlock.core.LockedTaskRunner;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * The example of docs/design.md, "Waiting for a lock": a critical section in an application (hand out the next
 * invoice number, one instance at a time), which waits for the lock rather than skipping it.
 */
public final class InvoiceNumbers {

    private final LockedTaskRunner runner;
    private final AtomicLong last = new AtomicLong(); // stands for a table the instances share

    public InvoiceNumbers(CloudLockProvider provider) {
        this.runner = new LockedTaskRunner(provider);
    }

    /** The next invoice number, or empty when another instance held the lock for the whole 30 s. */
    public Optional<Long> next() throws InterruptedException {
        // snippet:wait
        LockConfiguration config =
                new LockConfiguration(ClockProvider.now(), "invoice-numbers", Duration.ofMinutes(1), Duration.ZERO);
        LockedRun<Long> run = runner.run(config, Duration.ofSeconds(30), fencingToken -> last.incrementAndGet());
        if (run instanceof LockedRun.Ran<Long> ran) {
            return Optional.of(ran.value());
        }
        return Optional.empty(); // LockedRun.NotAcquired: another holder kept the lock for 30 s
        // end-snippet:wait
    }
}
