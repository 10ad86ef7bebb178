package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.StaleFencingTokenException;
import java.time.Duration;
import java.util.UUID;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;

/**
 * The stale-holder scenario of a fenced write, for every resource a job writes to: holder A takes the lock on a real
 * store, its lease runs out (a short lease and a real wait), B takes the lock and writes with its newer fencing token,
 * then A writes with its old one. A fenced sink refuses A with {@link StaleFencingTokenException} and keeps B's data;
 * an unfenced write, the negative control, lets A's land over B's.
 *
 * <p>A and B are two providers on the same lock store (two instances of a job), each with its own {@code lockedBy}.
 */
public final class StaleHolderScenario {

    /** The lease A outlives. */
    public static final Duration LEASE = Duration.ofMillis(300);

    /** One record of the resource the job writes: the same record every call. */
    public interface Sink {
        /** Writes {@code value} fenced by {@code token}. */
        void write(long token, String value) throws Exception;

        /** Writes {@code value} as a job without the fence would: unconditionally. */
        void writeUnfenced(String value) throws Exception;

        /** The value the record holds, or null when it is absent. */
        @Nullable
        String read() throws Exception;
    }

    private final CloudLockProvider a;
    private final CloudLockProvider b;

    public StaleHolderScenario(CloudLockProvider a, CloudLockProvider b) {
        this.a = a;
        this.b = b;
    }

    /** A holds, pauses past its lease, B takes over and writes, then A's late write is refused and B's data stays. */
    public void aStaleHoldersWriteIsRefusedAndTheNewerHoldersDataStays(Sink sink) throws Exception {
        Holdings h = takeOver();
        sink.write(h.older.fencingToken(), "A before its pause");
        sink.write(h.newer.fencingToken(), "B");
        assertThatThrownBy(() -> sink.write(h.older.fencingToken(), "A after its pause"))
                .isInstanceOfSatisfying(StaleFencingTokenException.class, refused -> {
                    assertThat(refused.token()).isEqualTo(h.older.fencingToken());
                    assertThat(refused.storedToken()).isEqualTo(h.newer.fencingToken());
                });
        assertThat(sink.read()).as("B's data after A's late write").isEqualTo("B");
        h.newer.unlock();
    }

    /** A stale holder whose first write comes after the newer holder's: refused just the same. */
    public void aStaleHoldersFirstWriteAfterTheNewerHoldersIsRefused(Sink sink) throws Exception {
        Holdings h = takeOver();
        sink.write(h.newer.fencingToken(), "B");
        assertThatThrownBy(() -> sink.write(h.older.fencingToken(), "A after its pause"))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(sink.read()).isEqualTo("B");
        h.newer.unlock();
    }

    /** One holding writes twice with its token: both land; then a newer holding writes over it. */
    public void theSameHoldingWritesTwiceWithItsToken(Sink sink) throws Exception {
        FencedLock held = a.tryLock(config(uniqueName(), Duration.ofMinutes(1))).orElseThrow();
        sink.write(held.fencingToken(), "first");
        sink.write(held.fencingToken(), "second");
        assertThat(sink.read()).isEqualTo("second");
        held.unlock();
    }

    /** The negative control: the same sequence without the fence lets A's late write land over B's. */
    public void withoutTheFenceAStaleHoldersWriteLandsOverTheNewerHolders(Sink sink) throws Exception {
        Holdings h = takeOver();
        sink.writeUnfenced("B");
        sink.writeUnfenced("A after its pause");
        assertThat(sink.read()).as("unfenced: A's late write landed").isEqualTo("A after its pause");
        h.newer.unlock();
    }

    private record Holdings(FencedLock older, FencedLock newer) {}

    private Holdings takeOver() throws InterruptedException {
        String name = uniqueName();
        FencedLock older = a.tryLock(config(name, LEASE)).orElseThrow();
        Thread.sleep(LEASE.toMillis() * 2); // A's pause: its lease runs out
        FencedLock newer = b.tryLock(config(name, Duration.ofMinutes(1)))
                .orElseThrow(() -> new AssertionError("B could not take the lock after A's lease ran out"));
        assertThat(newer.fencingToken()).isGreaterThan(older.fencingToken());
        return new Holdings(older, newer);
    }

    private static String uniqueName() {
        return "fenced-" + UUID.randomUUID();
    }

    private static LockConfiguration config(String name, Duration lease) {
        return new LockConfiguration(ClockProvider.now(), name, lease, Duration.ZERO);
    }
}
