package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.LockStoreConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * A guard in a {@code static final} field, as the docs declare it, meets a worker whose app settings are wrong or
 * whose store is down at cold start: the class still initialises, and each invocation fails with the guard's error
 * naming the setting, until the setting is there. The old declaration (settings read and client built in the
 * initialiser) is the negative control: its class fails to initialise, and stays unusable for the worker's life. And
 * the invocation's outcome line names the job, the tick and the fencing token.
 */
class AzureColdStartTest {

    private static final String UNMONITORED =
            "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":null,\"IsPastDue\":false}";

    /** The docs' declaration, on app settings that name no lock store. */
    static final class DocsDeclaration {
        static final AzureTickGuard GUARD =
                AzureTickGuard.fromEnvironment(() -> Map.of("CLOUDLOCK_FUNCTION_TIMEOUT", "PT5M"));
    }

    /** The declaration the docs had: the settings read and the client built while the class initialises. */
    static final class EagerDeclaration {
        static final AzureTickGuard GUARD = new AzureTickGuard(AzureGuardSettings.defaults());
    }

    @Test
    void aMissingStoreSettingFailsEachInvocationNamingItAndNotTheClass() {
        for (int invocation = 0; invocation < 2; invocation++) {
            assertThatThrownBy(() -> DocsDeclaration.GUARD.run(
                            UNMONITORED, new TestExecutionContext("nightlyReport"), run -> {}))
                    .isInstanceOf(LockStoreConfigurationException.class)
                    .hasMessageContaining("CLOUDLOCK_STORE");
        }
    }

    @Test
    void aMalformedSettingIsAConfigurationErrorNamingIt() {
        AzureTickGuard guard = AzureTickGuard.fromEnvironment(
                () -> Map.of("CLOUDLOCK_STORE", "cosmos", "CLOUDLOCK_TICK_RESOLUTION", "1 minute"));
        assertThatThrownBy(guard::settings)
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("CLOUDLOCK_TICK_RESOLUTION");
    }

    @Test
    void theSettingsAndTheStoresClientWaitForTheFirstInvocation() {
        AtomicInteger reads = new AtomicInteger();
        AzureTickGuard.fromEnvironment(() -> {
            reads.incrementAndGet();
            return Map.of("CLOUDLOCK_STORE", "cosmos", "CLOUDLOCK_COSMOS_ENDPOINT", "https://127.0.0.1:1/");
        });
        assertThat(reads).as("app settings read at construction").hasValue(0);

        // a Cosmos DB account nothing answers for: building the client would read it; constructing must not
        long started = System.nanoTime();
        new AzureTickGuard(AzureGuardSettings.defaults()
                .withCosmosEndpoint("https://127.0.0.1:1/")
                .withCosmosKey(
                        "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="));
        assertThat((System.nanoTime() - started) / 1_000_000)
                .as("ms to construct")
                .isLessThan(2_000);
    }

    @Test
    void theOutcomeLineNamesTheJobTheTickAndTheFencingToken() throws Exception {
        TestExecutionContext context = new TestExecutionContext("outcomeLine");
        List<String> lines = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        context.getLogger().addHandler(handler);
        try {
            // an unmonitored invocation's tick is its time at the resolution (1 s): a fixed clock, so that the two
            // invocations are one tick however slowly the machine runs them
            AzureTickGuard guard = new AzureTickGuard(
                    AzureGuardSettings.defaults(),
                    new CloudLockProvider(new InMemoryLockStore(), "azure-cold-start-test"),
                    java.time.Clock.fixed(java.time.Instant.now(), java.time.ZoneOffset.UTC));
            guard.run(UNMONITORED, context, run -> {});
            guard.run(UNMONITORED, context, run -> {});
        } finally {
            context.getLogger().removeHandler(handler);
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("cloudlock: outcomeLine at \\S+: ACQUIRED \\(fencing token \\d+\\)");
        assertThat(lines.get(1)).matches("cloudlock: outcomeLine at \\S+: DONE");
    }

    @Test
    void theEagerDeclarationLeavesItsClassUnusable() {
        assertThatThrownBy(() -> EagerDeclaration.GUARD.settings())
                .isInstanceOf(ExceptionInInitializerError.class)
                .cause()
                .hasMessageContaining("The lock store is required");
        assertThatThrownBy(() -> EagerDeclaration.GUARD.settings())
                .as("every later invocation of the worker")
                .isInstanceOf(NoClassDefFoundError.class);
    }
}
