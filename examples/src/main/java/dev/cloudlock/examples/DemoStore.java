package dev.cloudlock.examples;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.LocalStores;
import dev.cloudlock.emulators.LocalStores.LocalStore;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The lock store a demo instance uses: any store on the class path, found there as the starter and the command find
 * it ({@link StoreType}). By default the in-memory store (core's reference implementation of the store SPI, one
 * shared by every instance, so the demo needs only a JDK); any other on its emulator, started on 127.0.0.1
 * ({@link LocalStores}), each instance with a client of its own, as separate processes would have.
 */
final class DemoStore {

    private static final String IN_MEMORY = "in-memory";

    /** The stores the demo can run on: the in-memory one and those on the class path that have an emulator here. */
    static final List<String> NAMES = StoreType.all().stream()
            .map(StoreType::name)
            .filter(name -> name.equals(IN_MEMORY) || LocalStores.NAMES.contains(name))
            .toList();

    private final StoreType type;
    private final @Nullable LocalStore local;
    private final @Nullable CloudLockProvider inMemory;
    private boolean initialised;

    private DemoStore(StoreType type, @Nullable LocalStore local) {
        this.type = type;
        this.local = local;
        this.inMemory =
                local == null ? type.builder(settings(Map.of(), Map.of())).build() : null;
    }

    /**
     * The store {@code name}: the in-memory store, or the store on its emulator, started (or reused). A missing
     * emulator fails with its install hint; a name that is no store on the class path fails naming those there are.
     */
    static DemoStore start(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("Unknown store '" + name + "'. Available: " + NAMES);
        }
        StoreType type = StoreType.named(name, "--store");
        if (name.equals(IN_MEMORY)) {
            return new DemoStore(type, null);
        }
        LocalStore local = LocalStores.start(name).orElseThrow();
        local.systemProperties().forEach(System::setProperty);
        return new DemoStore(type, local);
    }

    /** The emulator the store runs on; empty for the in-memory store. */
    Optional<EmulatorProcess> emulator() {
        return local == null ? Optional.empty() : Optional.of(local.emulator());
    }

    String description() {
        if (local == null) {
            return "the in-memory store; --store "
                    + String.join(
                            "|",
                            NAMES.stream()
                                    .filter(name -> !name.equals(IN_MEMORY))
                                    .toList())
                    + " runs on an emulator";
        }
        return type.title() + " on " + local.description();
    }

    /**
     * A provider writing {@code instance} as lockedBy: the shared in-memory one's store, or one with its own client.
     */
    synchronized CloudLockProvider provider(String instance) {
        if (local == null || inMemory != null) {
            return new CloudLockProvider(
                    java.util.Objects.requireNonNull(inMemory).store(), instance);
        }
        CloudLockProvider provider = type.builder(settings(local.settings(), local.environment()))
                .lockedBy(instance)
                .build();
        if (!initialised) {
            provider.admin().init();
            initialised = true;
        }
        return provider;
    }

    private StoreSettings settings(Map<String, String> values, Map<String, String> environment) {
        return new StoreSettings(
                type.name(),
                setting -> values.get(setting.name()),
                setting -> "--" + setting.name(),
                client -> null,
                variable -> environment.getOrDefault(variable, System.getenv(variable)));
    }
}
