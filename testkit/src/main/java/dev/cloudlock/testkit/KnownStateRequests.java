package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.IntSupplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * The request counts of {@code dev.cloudlock.spi.KnownStates}'s rule, for a store whose acquisition is one conditional
 * write and one read (S3, Blob Storage, Table Storage): its test counts the requests on the wire, this checks them,
 * operation by operation and for a name two instances take turns on. Not part of the contract, which counts no
 * requests.
 */
public final class KnownStateRequests {

    private KnownStateRequests() {}

    /**
     * The store's words for its three requests, in the messages of {@link #perOperation}.
     *
     * @param read the read of one record ({@code GET}, {@code Get Entity})
     * @param create the write that succeeds only when no record exists ({@code PUT If-None-Match})
     * @param update the write conditioned on the version read or written last ({@code PUT If-Match})
     */
    public record Requests(String read, String create, String update) {}

    /**
     * Each operation's requests: the first acquisition of a name (the store's time read first, then the create), extend
     * and release (one update each), the previous holder's acquisition (one update), another instance's (a read, an
     * update), a refusal while held (one read), and the previous holder's acquisition after another's (its remembered
     * version is stale: a failed update, a read, an update). An instance whose update failed so knows that others
     * write the name, and its next refusals cost one read each.
     *
     * @param provider a new provider (a store of its own) for a {@code lockedBy}
     * @param requests the requests on the wire since it was last called
     */
    public static void perOperation(
            Function<String, CloudLockProvider> provider, IntSupplier requests, String name, Requests words) {
        CloudLockProvider a = provider.apply("a");
        CloudLockProvider b = provider.apply("b");
        CloudLockProvider c = provider.apply("c");
        // b's and c's first calls through core are made: core asked for the store's time (where the store's answers
        // carry one) or learned that they carry none
        b.tryLock(config("warm-up-" + name)).orElseThrow().unlock();
        c.tryLock(config("warm-up-" + name)).orElseThrow().unlock();
        requests.getAsInt();
        FencedLock first = a.tryLock(config(name)).orElseThrow();
        assertThat(requests.getAsInt())
                .as("first-ever acquire, and the first call of a process: " + words.read() + " 404 for the store's"
                        + " time, from which the acquisition starts, " + words.create())
                .isEqualTo(2);
        FencedLock extended =
                (FencedLock) first.extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow();
        assertThat(requests.getAsInt()).as("extend: " + words.update()).isEqualTo(1);
        extended.unlock();
        assertThat(requests.getAsInt()).as("release: " + words.update()).isEqualTo(1);

        FencedLock again = a.tryLock(config(name)).orElseThrow();
        assertThat(requests.getAsInt())
                .as("steady-state acquire by the previous holder: " + words.update())
                .isEqualTo(1);
        assertThat(again.fencingToken()).isEqualTo(first.fencingToken() + 1);
        again.unlock();
        assertThat(requests.getAsInt()).as("release").isEqualTo(1);

        FencedLock other = b.tryLock(config(name)).orElseThrow();
        assertThat(requests.getAsInt())
                .as("acquire after someone else: " + words.read() + ", " + words.update())
                .isEqualTo(2);
        assertThat(c.lock(config(name))).isEmpty();
        assertThat(requests.getAsInt())
                .as("refused while held: the " + words.read() + " shows the holder, core reads no more")
                .isEqualTo(1);
        other.unlock();
        assertThat(requests.getAsInt()).as("release").isEqualTo(1);

        FencedLock back = a.tryLock(config(name)).orElseThrow();
        assertThat(requests.getAsInt())
                .as("previous holder whose remembered version is stale: " + words.update() + " 412, " + words.read()
                        + ", " + words.update())
                .isEqualTo(3);
        assertThat(back.fencingToken()).isEqualTo(other.fencingToken() + 1);
        back.unlock();
        FencedLock held = b.tryLock(config(name)).orElseThrow();
        requests.getAsInt();
        assertThat(a.lock(config(name))).isEmpty();
        assertThat(requests.getAsInt())
                .as("refused: a's failed " + words.update() + " above told it others write the name, so the "
                        + words.read() + " first shows the holder")
                .isEqualTo(1);
        assertThat(a.lock(config(name))).isEmpty();
        assertThat(requests.getAsInt()).as("refused again: one " + words.read()).isEqualTo(1);
        held.unlock();
    }

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
        provider.tryLock(config(name)).orElseThrow().unlock();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }
}
