package dev.cloudlock.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one rule of a fenced write, and the read-compare-write loop of the stores that can only condition a write on
 * the version they read (an ETag).
 *
 * <p>The rule: a write carrying fencing token {@code t} is accepted when the resource holds no token yet or holds one
 * {@code <= t} (equal: the same holding writing twice), and refused when it holds a newer one. An accepted write
 * stores {@code t}. Stores whose conditions can compare numbers (DynamoDB, SQL) say exactly this in their condition;
 * the others read the stored token and its version, apply {@link #admits}, and write conditioned on that version
 * ({@link #writeOnVersion}).
 */
public final class FencingTokens {

    /** How many lost races {@link #writeOnVersion} re-reads after before it gives up. */
    public static final int MAX_ATTEMPTS = 10;

    private FencingTokens() {}

    /** Whether a write carrying {@code token} may land on a resource that holds {@code stored} (null: none yet). */
    public static boolean admits(@Nullable Long stored, long token) {
        return stored == null || stored <= token;
    }

    /**
     * Throws {@link StaleFencingTokenException} unless {@link #admits admits(stored, token)}.
     *
     * @param resource what holds {@code stored}, for the message
     */
    public static void check(String resource, @Nullable Long stored, long token) {
        if (!admits(stored, token)) {
            throw new StaleFencingTokenException(resource, token, stored);
        }
    }

    /**
     * What a read of a fenced resource found.
     *
     * @param fence the token it holds; null when it holds none (absent, or written without a fence)
     * @param version what the next write is conditioned on (an ETag); null when the resource is absent, and the write
     *     is then conditioned on its absence
     */
    public record Seen<V>(@Nullable Long fence, @Nullable V version) {
        /** An absent resource. */
        public static <V> Seen<V> absent() {
            return new Seen<>(null, null);
        }
    }

    /** A read of a fenced resource's token and version. */
    @FunctionalInterface
    public interface VersionedRead<V> {
        Seen<V> read();
    }

    /** A write of the resource with the token, conditioned on {@code version} (null: on its absence). */
    @FunctionalInterface
    public interface ConditionalWrite<V, R> {
        /** The write's result, or null when its condition failed (the version moved): the loop reads again. */
        @Nullable
        R write(@Nullable V version);
    }

    /**
     * Reads, checks the rule, and writes conditioned on the version read; a lost race (the version moved between the
     * read and the write) reads again, at most {@value #MAX_ATTEMPTS} times. Costs two requests when nobody races.
     *
     * @throws StaleFencingTokenException when a read finds a newer token (nothing is written)
     * @throws LockStoreUnavailableException when the race was lost {@value #MAX_ATTEMPTS} times in a row
     */
    public static <V, R> R writeOnVersion(
            String resource, long token, VersionedRead<V> read, ConditionalWrite<V, R> write) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Seen<V> seen = Objects.requireNonNull(read.read(), "read");
            check(resource, seen.fence(), token);
            R written = write.write(seen.version());
            if (written != null) {
                return written;
            }
        }
        throw new LockStoreUnavailableException(resource + ": fenced write with token " + token + " lost the race to"
                + " other writers " + MAX_ATTEMPTS + " times in a row (the resource changed between each read and its"
                + " conditional write); retry later");
    }
}
