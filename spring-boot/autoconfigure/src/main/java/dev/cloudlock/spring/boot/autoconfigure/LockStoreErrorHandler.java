package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.LockStoreException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.TaskUtils;
import org.springframework.util.ErrorHandler;

/**
 * The scheduler's error handler for a job that did not run because the lock store failed: one WARN line in the
 * store's words, without a stack trace (the trace is at DEBUG), and while the failures go on at most one such line
 * per {@link #QUIET}, which counts the failures it stands for. Any other error of a scheduled task goes to Spring's
 * own handler, which logs it with its trace as before.
 */
final class LockStoreErrorHandler implements ErrorHandler {

    /** The least time between two WARN lines about failed lock attempts. */
    static final Duration QUIET = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(LockStoreErrorHandler.class);

    private final LongSupplier nanoTime;
    private final long quietNanos;
    private boolean logged;
    private long lastLogged;
    private int unlogged;

    LockStoreErrorHandler() {
        this(System::nanoTime, QUIET);
    }

    LockStoreErrorHandler(LongSupplier nanoTime, Duration quiet) {
        this.nanoTime = nanoTime;
        this.quietNanos = quiet.toNanos();
    }

    @Override
    public void handleError(Throwable error) {
        LockStoreException failure = storeFailure(error);
        if (failure == null) {
            TaskUtils.LOG_AND_SUPPRESS_ERROR_HANDLER.handleError(error);
            return;
        }
        LOG.debug("A scheduled job did not run: the lock store failed", error);
        int stoodFor;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            if (logged && now - lastLogged < quietNanos) {
                unlogged++;
                return;
            }
            stoodFor = unlogged;
            logged = true;
            lastLogged = now;
            unlogged = 0;
        }
        LOG.warn(
                "A scheduled job did not run: the lock store failed ({}: {}){}",
                failure.getClass().getSimpleName(),
                failure.getMessage(),
                stoodFor == 0
                        ? ""
                        : "; " + stoodFor + " more failed lock attempts since the previous line (one line per "
                                + QUIET.toMinutes() + " min; each with its trace at DEBUG)");
    }

    private static @Nullable LockStoreException storeFailure(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof LockStoreException failure) {
                return failure;
            }
        }
        return null;
    }
}
