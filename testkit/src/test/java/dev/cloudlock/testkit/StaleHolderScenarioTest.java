package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.InMemoryLockStore;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/** The scenario itself, on the in-memory store and a resource in memory fenced by {@link FencingTokens}. */
class StaleHolderScenarioTest extends StaleHolderCases {

    private record Stored(@Nullable Long fence, String value) {}

    private final InMemoryLockStore store = new InMemoryLockStore();
    private final AtomicReference<@Nullable Stored> record = new AtomicReference<>();

    private final StaleHolderScenario.Sink sink = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) {
            FencingTokens.writeOnVersion(
                    "memory",
                    token,
                    () -> {
                        Stored seen = record.get();
                        return seen == null
                                ? FencingTokens.Seen.absent()
                                : new FencingTokens.Seen<>(seen.fence(), seen);
                    },
                    seen -> record.compareAndSet(seen, new Stored(token, value)) ? value : null);
        }

        @Override
        public void writeUnfenced(String value) {
            record.set(new Stored(null, value));
        }

        @Override
        public @Nullable String read() {
            Stored seen = record.get();
            return seen == null ? null : seen.value();
        }
    };

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return new CloudLockProvider(store, lockedBy);
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return sink;
    }
}
