package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.IntSupplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * The request counts of {@code dev.cloudlock.spi.KnownStates}'s rule for a name two instances take turns on, for a
 * store whose acquisition is one conditional write and one read (S3, Blob Storage): its test counts the requests on
 * the wire, this checks them. Not part of the contract, which counts no requests.
 */
public final class KnownStateRequests {

    private KnownStateRequests() {}

    /**
     * Two instances taking turns: each pays one failed write the first time it finds the other wrote since its own
     * release, then reads first (no failed write) until a read finds its own release unchanged, and is then back at
     * one write to acquire.
     *
     * @param provider a new provider (a store of its own) for a {@code lockedBy}
     * @param requests the requests on the wire since it was last called
     */
    public static void twoInstancesTakingTurns(
            Function<String, CloudLockProvider> provider, IntSupplier requests, String name) {
        CloudLockProvider a = provider.apply("a");
        CloudLockProvider b = provider.apply("b");
        cycle(a, name);
        cycle(b, name);
        requests.getAsInt();
        cycle(a, name);
        assertThat(requests.getAsInt())
                .as("a's remembered release is stale: the failed write, the read, the write, and the release")
                .isEqualTo(4);
        cycle(b, name);
        assertThat(requests.getAsInt()).as("b's too").isEqualTo(4);
        cycle(a, name);
        assertThat(requests.getAsInt())
                .as("a knows others write the name: the read (b's release), the write, the release; no failed write")
                .isEqualTo(3);
        cycle(a, name);
        assertThat(requests.getAsInt())
                .as("the read, which finds a's own release unchanged (its version as written and as read compare),"
                        + " the write, the release")
                .isEqualTo(3);
        cycle(a, name);
        assertThat(requests.getAsInt())
                .as("the steady state again: the write, the release")
                .isEqualTo(2);
    }

    private static void cycle(CloudLockProvider provider, String name) {
        provider.tryLock(new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow()
                .unlock();
    }
}
