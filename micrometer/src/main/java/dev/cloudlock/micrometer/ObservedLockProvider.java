package dev.cloudlock.micrometer;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.spi.LockStore;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A {@link CloudLockProvider} that observes each lock it hands out ({@value CloudLockMeters#LOCK_OBSERVATION}):
 * the observation starts when the lock is taken and stops when it is released, and its scope is open on the taking
 * thread in between, so a {@code @SchedulerLock} execution (which ShedLock runs between the two on one thread) shows
 * in traces with the job's own spans inside it. Locking itself is {@link CloudLockProvider}'s, unchanged; an attempt
 * that finds the lock held creates no observation.
 */
public final class ObservedLockProvider extends CloudLockProvider {

    private final String storeName;
    private final ObservationRegistry observations;

    /**
     * @param store the store, typically a {@link MeteredLockStore}
     * @param lockedBy the identity written to {@code lockedBy}
     * @param storeName the {@value CloudLockMeters#TAG_STORE} key value, e.g. {@code dynamodb}
     * @param observations where the observations go
     */
    public ObservedLockProvider(LockStore store, String lockedBy, String storeName, ObservationRegistry observations) {
        super(store, lockedBy);
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.observations = Objects.requireNonNull(observations, "observations");
    }

    @Override
    public Optional<FencedLock> tryLock(LockConfiguration lockConfiguration) {
        return super.tryLock(lockConfiguration).map(lock -> {
            Observation observation = Observation.createNotStarted(CloudLockMeters.LOCK_OBSERVATION, observations)
                    .contextualName("lock " + lock.name())
                    .lowCardinalityKeyValue(CloudLockMeters.TAG_LOCK, lock.name())
                    .lowCardinalityKeyValue(CloudLockMeters.TAG_STORE, storeName)
                    .highCardinalityKeyValue("fence", Long.toString(lock.fencingToken()))
                    .start();
            return new ObservedLock(lock, observation, observation.openScope());
        });
    }

    /** A held lock whose release stops its observation; an extension carries the observation on. */
    private static final class ObservedLock implements FencedLock {
        private final FencedLock lock;
        private final Observation observation;
        private final Observation.Scope scope;

        ObservedLock(FencedLock lock, Observation observation, Observation.Scope scope) {
            this.lock = lock;
            this.observation = observation;
            this.scope = scope;
        }

        @Override
        public String name() {
            return lock.name();
        }

        @Override
        public long fencingToken() {
            return lock.fencingToken();
        }

        @Override
        public Optional<Instant> tick() {
            return lock.tick();
        }

        @Override
        public void unlock() {
            end(lock::unlock);
        }

        @Override
        public void completeTick() {
            end(lock::completeTick);
        }

        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            Optional<SimpleLock> extended = lock.extend(lockAtMostFor, lockAtLeastFor);
            if (extended.isEmpty()) {
                // stopped by the release that follows, on the job's thread (an extension may come from another)
                observation.event(Observation.Event.of("cloudlock.lock.lost", "the lease had run out"));
            }
            return extended.map(h -> new ObservedLock((FencedLock) h, observation, scope));
        }

        private void end(Runnable release) {
            try {
                release.run();
            } catch (RuntimeException e) {
                observation.error(e);
                throw e;
            } finally {
                scope.close();
                observation.stop();
            }
        }

        @Override
        public String toString() {
            return lock.toString();
        }
    }
}
