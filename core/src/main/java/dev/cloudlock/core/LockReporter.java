package dev.cloudlock.core;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a provider's {@link LockListener} of each decision; a listener that throws is logged, and locking goes on.
 */
final class LockReporter {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockListener listener;

    LockReporter(LockListener listener) {
        this.listener = listener;
    }

    /** Calls the listener; one that throws is logged, and locking goes on. */
    void report(Consumer<LockListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            LOG.warn("A LockListener threw; locking goes on", e);
        }
    }

    void storeError(LockEvent event, String operation, RuntimeException error) {
        report(l -> l.storeError(event, operation, error));
    }
}
