package dev.cloudlock.benchmarks;

import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * One store's part of the benchmarks: its targets for each report, on the backends it offers there, and its soak
 * targets. The benchmarks find the stores here, through {@link ServiceLoader}, and name none of them: a store's
 * implementation is compiled only when the build has the store's module (a profile per store in
 * {@code benchmarks/pom.xml}) and registered by {@code @AutoService}, so every report measures exactly the stores
 * the build has, in the order of {@link #position()}, and {@code --store} takes exactly their names.
 */
public interface BenchmarkStore {

    /** The reports that measure every store found, each on the backends that store offers for it. */
    enum Run {
        LOCK_CYCLE,
        WAITING,
        EVERY_OCCURRENCE,
        LISTING
    }

    /** A report of one store alone. */
    interface OwnReport {
        Report run(boolean quick) throws Exception;
    }

    /** Where a soak's faults are: a store's faulty target sends its requests through them. */
    interface FaultWire {
        /** The faults, for a store whose client takes an interceptor rather than a proxy. */
        WireFaults faults();

        /** The URL of a proxy that carries {@code kind}'s HTTP to {@code emulator} through the faults. */
        String http(WireFaultProxy.Store kind, EmulatorProcess emulator);

        /** The URL of {@code proxy}, which the soak closes when it ends. */
        String proxy(WireFaultProxy proxy);
    }

    /** The store's name, as {@code --store} takes it: its {@code StoreType}'s name. */
    String name();

    /** Where the store's sections come in every report: lower first. */
    int position();

    /** The targets {@code run} measures, one per backend, in report order; none when it leaves the store out. */
    List<Supplier<LockCycleBenchmark.Target>> targets(Run run);

    /** The soak's target on the store's emulator, without faults. */
    LockCycleBenchmark.Target soakTarget();

    /** The soak's target, its requests crossing {@code wire}'s faults. */
    LockCycleBenchmark.Target soakTarget(FaultWire wire);

    /** Reports of this store alone, by the option that asks for one ({@code --<name>}). */
    default Map<String, OwnReport> ownReports() {
        return Map.of();
    }

    /** The stores on the class path, in report order. */
    static List<BenchmarkStore> all() {
        List<BenchmarkStore> stores = new ArrayList<>();
        ServiceLoader.load(BenchmarkStore.class, BenchmarkStore.class.getClassLoader())
                .forEach(stores::add);
        stores.sort(Comparator.comparingInt(BenchmarkStore::position));
        return List.copyOf(stores);
    }

    /**
     * The store {@code name} on the class path.
     *
     * @throws IllegalArgumentException naming the stores found, when none has that name
     */
    static BenchmarkStore named(String name) {
        return all().stream()
                .filter(store -> store.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown store '" + name + "': give one of "
                        + String.join(", ", names()) + " (the stores whose modules this build has)"));
    }

    /** The names of the stores on the class path, in report order. */
    static List<String> names() {
        return all().stream().map(BenchmarkStore::name).toList();
    }
}
