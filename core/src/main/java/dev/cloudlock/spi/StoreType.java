package dev.cloudlock.spi;

import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.InMemoryStoreType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A kind of lock store, described once by its module: the name users choose it by ({@code cloudlock.store},
 * {@code --store}), the settings it takes and how to build a provider from them. Each store module registers its
 * type with {@link ServiceLoader} ({@code META-INF/services/dev.cloudlock.spi.StoreType}); the Spring Boot starter,
 * the {@code cloudlock} command, the demo and the benchmarks find the stores there, so a store module that is absent
 * is simply not offered.
 */
public interface StoreType {

    /** The store's name: lower-case words joined by {@code -}, such as {@code dynamodb} or {@code azure-blob}. */
    String name();

    /** The service's name for people, such as {@code Amazon DynamoDB}. */
    String title();

    /** The settings the store takes, in the order its documentation lists them. */
    List<StoreSetting> settings();

    /**
     * A provider builder on the store that {@code settings} describe, with the store's coordinates set; the caller
     * sets the shared ones ({@code lockedBy}, deadlines) and builds. It sends no request.
     *
     * @throws IllegalArgumentException when a setting is missing or bad, naming it as the user wrote it
     */
    CloudLockProviderBuilder<?> builder(StoreSettings settings);

    /**
     * Checks, before any request to the store, what the client the store builds for itself (the application has
     * none) needs from this machine, such as credentials: for a caller that wants a missing one named as a setup
     * problem rather than found by the first request, such as the {@code cloudlock} command. It may read files and
     * the credential sources of the SDK's chain; it sends no request to the store. By default it checks nothing.
     *
     * @throws IllegalArgumentException naming what was looked for and what to set, when something is missing
     */
    default void checkEnvironment(StoreSettings settings) {}

    /**
     * What to do when the store's setup is missing or wrong (a {@code LockStoreConfigurationException}): what to
     * create, with which permissions, naming each setting as the user writes it ({@link StoreSettings#spelling}).
     */
    String setupFix(StoreSettings settings);

    /** The store types on the class path, by name. */
    static List<StoreType> all() {
        List<StoreType> types = new ArrayList<>();
        ServiceLoader.load(StoreType.class, StoreType.class.getClassLoader()).forEach(types::add);
        types.sort(Comparator.comparing(StoreType::name));
        return List.copyOf(types);
    }

    /**
     * The store modules on the class path: every store type there but the in-memory one, which is always there and is
     * chosen only by name. A caller whose user named no store takes the one module when there is exactly one.
     */
    static List<StoreType> modules() {
        return all().stream()
                .filter(type -> !type.name().equals(InMemoryStoreType.NAME))
                .toList();
    }

    /** The store type {@code name} on the class path; empty when no module on it registers that name. */
    static Optional<StoreType> find(String name) {
        return all().stream().filter(type -> type.name().equals(name)).findFirst();
    }

    /**
     * The store type {@code name} on the class path.
     *
     * @param spelling how the user chose it, such as {@code cloudlock.store} or {@code --store}
     * @throws IllegalArgumentException naming the stores there are, the near misses of {@code name} among them,
     *     and where the store modules are, when none has that name
     */
    static StoreType named(String name, String spelling) {
        return find(name).orElseThrow(() -> {
            List<String> there = all().stream().map(StoreType::name).toList();
            List<String> near = NearMisses.of(name, there);
            return new IllegalArgumentException(spelling + " is '" + name
                    + "', and no store of that name is on the class path; the stores there are "
                    + String.join(", ", there) + ". Each store is a module of its own: "
                    + (near.isEmpty() ? "" : "did you mean '" + String.join("' or '", near) + "'? Otherwise, ")
                    + "if '" + name + "' is one of cloudlock's stores (cloudlock-bom lists them), add the dependency"
                    + " dev.cloudlock:cloudlock-" + name + " (its version comes from cloudlock-bom)");
        });
    }
}
