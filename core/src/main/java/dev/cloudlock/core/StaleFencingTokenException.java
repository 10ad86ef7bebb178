package dev.cloudlock.core;

import net.javacrumbs.shedlock.support.LockException;

/**
 * A fenced write was refused because it carried a fencing token older than the one the resource already holds: a
 * newer holding of the lock has written there, so this holding's lease ran out (a pause, a frozen container, a slow
 * run) and another holder took the lock. Nothing was written by the refused call, and the newer holder's data stays.
 *
 * <p>What it guarantees: it is thrown only after the resource itself compared the tokens — in the same conditional
 * write that would have written (a DynamoDB condition, a SQL {@code WHERE}, an {@code If-Match} on the version the
 * fence was read from, a Firestore transaction) — so a write that raced a newer holder cannot land. A token equal to
 * the stored one (the same holding writing twice) and a resource that holds no token yet are accepted; see
 * {@link FencingTokens#admits}.
 *
 * <p>What a job should do: stop. Its holding is over; retrying the write with the same token is refused again. This
 * is not a {@link LockStoreException}: the lock store did not fail, the lock simply belongs to someone else now.
 */
public class StaleFencingTokenException extends LockException {

    private final String resource;
    private final long token;
    private final long storedToken;

    /**
     * @param resource what refused the write, in words an operator can find it by (a table and key, an object key)
     * @param token the fencing token the refused write carried
     * @param storedToken the newer token the resource holds
     */
    public StaleFencingTokenException(String resource, long token, long storedToken) {
        super(resource + ": write with fencing token " + token + " refused: it holds " + storedToken
                + ", written by a newer holding of the lock. This holding's lease ran out and another holder took the"
                + " lock; stop writing.");
        this.resource = resource;
        this.token = token;
        this.storedToken = storedToken;
    }

    /** What refused the write. */
    public String resource() {
        return resource;
    }

    /** The fencing token the refused write carried. */
    public long token() {
        return token;
    }

    /** The newer fencing token the resource holds. */
    public long storedToken() {
        return storedToken;
    }
}
