package dev.cloudlock.core;

import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What every store's provider builder shares: the identity written as {@code lockedBy}, the deadlines of the
 * store's calls and the listener told of every decision. A store's builder extends it with its coordinates (a
 * client, a table) and {@link #store}; each setter returns the store's own builder, so the calls chain in any order.
 * {@link #build()} sends no request.
 *
 * @param <B> the store's builder
 */
public abstract class CloudLockProviderBuilder<B extends CloudLockProviderBuilder<B>> {

    private String lockedBy = InstanceIdentity.hostAndPid();
    private CallTimeouts timeouts = CallTimeouts.DEFAULT;
    private LockListener listener = LockListener.NONE;

    protected CloudLockProviderBuilder() {}

    /**
     * The readable identity written to {@code lockedBy}; default {@code hostname/pid}.
     *
     * @throws IllegalArgumentException when it is blank or holds an unresolved placeholder such as {@code ${HOSTNAME}}
     */
    public B lockedBy(String lockedBy) {
        this.lockedBy = LockRules.checkedLockedBy(lockedBy);
        return self();
    }

    /**
     * The deadline of each store call, all retries included; default 10 s. It is set on every request, so it also
     * bounds a client the application built; an acquire or extend is capped at its lease, never below 1 s
     * ({@link CallTimeouts}). A call that reaches it throws {@link LockStoreUnavailableException}.
     */
    public B callTimeout(Duration total) {
        this.timeouts = timeouts.withTotal(total);
        return self();
    }

    /** The deadline of each single attempt within a store call; default 3 s, never longer than the call timeout. */
    public B attemptTimeout(Duration perAttempt) {
        this.timeouts = timeouts.withPerAttempt(perAttempt);
        return self();
    }

    /**
     * How the user of this provider sets its deadlines, for the message of a call that reached one; default this
     * builder's {@code callTimeout(...)} and {@code attemptTimeout(...)}. The Spring Boot starter names its
     * properties here, the {@code cloudlock} command its options.
     */
    public B deadlinesSetBy(String setBy) {
        this.timeouts = timeouts.withSetBy(setBy);
        return self();
    }

    /** Told of every decision the provider makes ({@link LockListener}); default none. */
    public B listener(LockListener listener) {
        this.listener = java.util.Objects.requireNonNull(listener, "listener");
        return self();
    }

    /**
     * The provider on the store this builder describes.
     *
     * @throws IllegalStateException when a required coordinate was not set, naming the method that sets it
     */
    public final CloudLockProvider build() {
        return new CloudLockProvider(store(timeouts), lockedBy, listener);
    }

    /**
     * The store this builder describes, applying {@code timeouts} to every request; it sends no request. Check each
     * required coordinate with {@link #required}.
     */
    protected abstract LockStore store(CallTimeouts timeouts);

    /**
     * {@code value}, which the method {@code setter} of this builder sets.
     *
     * @throws IllegalStateException naming {@code setter} when {@code value} is {@code null}
     */
    protected final <T> T required(@Nullable T value, String setter) {
        if (value == null) {
            Class<?> entryPoint = getClass().getEnclosingClass();
            String builder =
                    entryPoint == null ? getClass().getSimpleName() : entryPoint.getSimpleName() + ".builder()";
            throw new IllegalStateException(setter + " is required: " + builder + "." + setter + "(...)");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
