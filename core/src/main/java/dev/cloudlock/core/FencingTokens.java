package dev.cloudlock.core;

import java.math.BigDecimal;
import java.math.BigInteger;
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
 *
 * <p>A token is a whole number from 0 to {@value Long#MAX_VALUE}. A stored fence that is none (text, a fraction, a
 * number outside that range) is never compared: the write is refused with {@link NotAFencingTokenException}
 * ({@link #stored}, {@link #storedText}).
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
     * The token a resource stores as the number {@code value}: null for none; a whole number from 0 to
     * {@value Long#MAX_VALUE} of any numeric type (a {@code Long}, a {@code BigDecimal} with no fraction, a
     * {@code Double} with an exact whole value) is that token.
     *
     * @param resource what holds {@code value}, for the message
     * @throws NotAFencingTokenException for anything else: text, a fraction, a number outside that range, another type
     */
    public static @Nullable Long stored(String resource, @Nullable Object value) {
        if (value == null) {
            return null;
        }
        BigDecimal number = exact(value);
        if (number == null) {
            throw new NotAFencingTokenException(resource, describe(value));
        }
        try {
            long token = number.longValueExact();
            if (token >= 0) {
                return token;
            }
        } catch (ArithmeticException notWholeOrTooLarge) {
            // reported below
        }
        throw new NotAFencingTokenException(resource, describe(value));
    }

    /**
     * The token a resource stores as the text {@code value}, as object metadata does: null for none; decimal digits
     * only, from 0 to {@value Long#MAX_VALUE}.
     *
     * @param resource what holds {@code value}, for the message
     * @throws NotAFencingTokenException for anything else: a sign, a fraction, an exponent, other characters, a number
     *     outside that range
     */
    public static @Nullable Long storedText(String resource, @Nullable String value) {
        if (value == null) {
            return null;
        }
        if (!value.isEmpty() && value.length() <= 19 && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException tooLarge) {
                // reported below
            }
        }
        throw new NotAFencingTokenException(resource, "the value '" + abbreviate(value) + "'");
    }

    private static @Nullable BigDecimal exact(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger big) {
            return new BigDecimal(big);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if ((value instanceof Double || value instanceof Float) && Double.isFinite(((Number) value).doubleValue())) {
            return new BigDecimal(((Number) value).doubleValue());
        }
        return null;
    }

    private static String describe(Object value) {
        String kind = value instanceof Number
                ? "a number"
                : value instanceof CharSequence
                        ? "text"
                        : "a " + value.getClass().getSimpleName();
        return "the value '" + abbreviate(String.valueOf(value)) + "' (" + kind + ")";
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "...";
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
