package dev.cloudlock.core;

import net.javacrumbs.shedlock.support.LockException;

/**
 * A fenced write was refused because the fence stored on the resource is no fencing token: text, a fraction, a number
 * outside {@code 0..}{@value Long#MAX_VALUE}, or a column of a type that cannot hold one. Something other than
 * cloudlock wrote it, so no token can be compared with it exactly, and nothing was written.
 *
 * <p>What it guarantees: a value the fence cannot compare exactly is never taken for an older token (which would let
 * a stale holder overwrite newer data) nor for a newer one (which would stop every holder with a false "stale"). What
 * to do: remove the value, or fence with another attribute, key or column. This is not a {@link LockStoreException}:
 * the store answered; the data on the resource is what is wrong.
 */
public class NotAFencingTokenException extends LockException {

    private static final long serialVersionUID = 1L;

    private final String resource;
    private final String found;

    /**
     * @param resource what holds the value, in words an operator can find it by (a table and key, an object key and
     *     its metadata key)
     * @param found what it holds, such as {@code the value 'abc' (text)}
     */
    public NotAFencingTokenException(String resource, String found) {
        super(resource + " holds " + found + " where its fence should be: no fencing token (a whole number from 0 to "
                + Long.MAX_VALUE + "), so no token compares with it exactly. The write was refused and nothing"
                + " written. Something other than cloudlock wrote it: remove it, or fence with another attribute, key"
                + " or column.");
        this.resource = resource;
        this.found = found;
    }

    /** What holds the value. */
    public String resource() {
        return resource;
    }

    /** What it holds, in words, such as {@code the value 'abc' (text)}. */
    public String found() {
        return found;
    }
}
