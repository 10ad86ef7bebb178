package dev.cloudlock.spi;

import java.util.Objects;
import java.util.Optional;

/** The outcome of {@link LockStore#tryAcquire}: the write was applied, or its condition failed. */
public sealed interface AcquireResult {

    /** The conditional write was applied; {@code lock} is the state it wrote. */
    record Acquired(HeldLock lock) implements AcquireResult {
        public Acquired {
            Objects.requireNonNull(lock, "lock");
        }
    }

    /**
     * The condition failed. {@code current} is the record that failed it when the store returned it in the same
     * response (DynamoDB's {@code ALL_OLD}); empty when it did not, and core then reads it.
     */
    record Lost(Optional<LockRecord> current) implements AcquireResult {
        public Lost {
            Objects.requireNonNull(current, "current");
        }
    }
}
