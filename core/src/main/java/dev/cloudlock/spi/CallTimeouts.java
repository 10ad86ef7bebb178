package dev.cloudlock.spi;

import dev.cloudlock.core.LockStoreUnavailableException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The deadline of one store call: {@code total} bounds the whole call (every retry the SDK makes included),
 * {@code perAttempt} each single HTTP or RPC attempt. A store applies them to every request it sends, so they bound
 * a client the application built as well as one the provider built.
 *
 * <p>The rule "never longer than the lease it protects" is here, once: {@link #forAcquire} and {@link #forExtend} cap
 * both values at the lease the request asks for (an answer that comes after that lease has ended is worth nothing:
 * the lock would already be free for others), and {@link #forSettling} caps the read that settles an acquisition at
 * what is left of that lease. {@link #forRelease} and {@link #forRead()} protect no lease and use the
 * configured values: a release often comes after its lease ran out (a job that overran), and a slow release only
 * leaves the lock held until its {@code lockUntil}, which it would be anyway.
 *
 * <p>Defaults ({@link #DEFAULT}): 10 s in total, 3 s per attempt, so that the SDKs' standard three attempts with
 * their back-off fit within one call (the reasoning and the measurements are in docs/design.md, "Deadlines").
 *
 * @param total the deadline of the whole call, retries included
 * @param perAttempt the deadline of one attempt; never longer than {@code total}
 * @param setBy how the user sets these deadlines, for the message of a call that reached one (such as
 *     {@code cloudlock.call-timeout and cloudlock.attempt-timeout}); {@code null}: the provider builder's methods
 */
public record CallTimeouts(
        Duration total, Duration perAttempt, @Nullable String setBy) {

    /** 10 s in total, 3 s per attempt. */
    public static final CallTimeouts DEFAULT = new CallTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(3));

    /** The shortest deadline the lease cap sets: a lease shorter than this caps the deadline here. */
    public static final Duration MIN_LEASE_CAP = Duration.ofSeconds(1);

    public CallTimeouts {
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(perAttempt, "perAttempt");
        if (total.isNegative() || total.isZero()) {
            throw new IllegalArgumentException("callTimeout must be positive, was " + total);
        }
        if (perAttempt.isNegative() || perAttempt.isZero()) {
            throw new IllegalArgumentException("attemptTimeout must be positive, was " + perAttempt);
        }
        if (perAttempt.compareTo(total) > 0) {
            perAttempt = total;
        }
    }

    /** Deadlines set through the provider builder's methods. */
    public CallTimeouts(Duration total, Duration perAttempt) {
        this(total, perAttempt, null);
    }

    /** These timeouts, with {@code setBy} as how the user sets them. */
    public CallTimeouts withSetBy(String setBy) {
        return new CallTimeouts(total, perAttempt, Objects.requireNonNull(setBy, "setBy"));
    }

    /** These timeouts with {@code total} as the whole call's deadline (the per-attempt one capped at it). */
    public CallTimeouts withTotal(Duration total) {
        return new CallTimeouts(total, perAttempt, setBy);
    }

    /** These timeouts with {@code perAttempt} as each attempt's deadline. */
    public CallTimeouts withPerAttempt(Duration perAttempt) {
        return new CallTimeouts(total, perAttempt, setBy);
    }

    /**
     * These timeouts, neither longer than {@code lease}, but never cut below {@link #MIN_LEASE_CAP}: the rule for a
     * call that protects a lease. (A lease under a second is a test's setting; a deadline under a round trip to a
     * cold client would fail every call, and core resolves a timed-out acquisition by reading the record anyway.)
     */
    public CallTimeouts within(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        Duration cap = lease.compareTo(MIN_LEASE_CAP) < 0 ? MIN_LEASE_CAP : lease;
        if (cap.compareTo(total) >= 0) {
            return this;
        }
        return new CallTimeouts(cap, perAttempt, setBy);
    }

    /** The deadline of an acquisition: at most its {@code lockAtMostFor}. */
    public CallTimeouts forAcquire(AcquireRequest request) {
        return within(request.lockAtMostFor());
    }

    /** The deadline of an extension: at most the new {@code lockAtMostFor}. */
    public CallTimeouts forExtend(ExtendRequest request) {
        return within(request.lockAtMostFor());
    }

    /**
     * The deadline of a release: the configured values. A release protects no lease (capping it at the lease being
     * released would make every release of a job that overran its lease time out at once).
     */
    public CallTimeouts forRelease(ReleaseRequest request) {
        Objects.requireNonNull(request, "request");
        return this;
    }

    /** The deadline of a read: the configured values (a read protects no lease). */
    public CallTimeouts forRead() {
        return this;
    }

    /**
     * The deadline of the read that settles an acquisition (its answer lost, or refused without the record): at most
     * {@code leaseLeft}, what is left of the lease the acquisition asked for, never below {@link #MIN_LEASE_CAP}. So
     * an acquisition and its settling read together take at most its lease plus a second, not the lease plus a full
     * read deadline.
     */
    public CallTimeouts forSettling(Duration leaseLeft) {
        return within(leaseLeft);
    }

    /**
     * The error for a call that hit this deadline: a {@link LockStoreUnavailableException} whose message names the
     * store, the operation, the lock and the deadline, and how to change it.
     *
     * @param store the store's name, e.g. {@code DynamoDB}
     * @param builder the builder that sets the deadline, e.g. {@code DynamoDbLockProvider.builder()}, named unless
     *     {@link #setBy} says otherwise
     */
    public LockStoreUnavailableException timedOut(
            String store, String operation, String name, String builder, Throwable cause) {
        return new LockStoreUnavailableException(
                store + " " + operation + " of lock '" + name + "' got no answer within its deadline ("
                        + describe() + "): the store is unreachable or too slow; retry later. The deadline is set"
                        + " with " + (setBy != null ? setBy : builder + ".callTimeout(...) and .attemptTimeout(...)")
                        + "; an acquire or extend"
                        + " is also capped at its lease (never below 1 s)",
                cause);
    }

    /** {@code "10 s in total, 3 s per attempt"}. */
    public String describe() {
        return human(total) + " in total, " + human(perAttempt) + " per attempt";
    }

    private static String human(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
