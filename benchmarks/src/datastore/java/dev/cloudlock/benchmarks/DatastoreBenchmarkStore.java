package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.util.List;
import java.util.function.Supplier;

/**
 * Datastore in the benchmarks: on the legacy Datastore emulator in the lock-cycle, every-occurrence and listing reports
 * and the soak (with faults, through the wire proxy in front of it); the waiting report leaves it out.
 */
@AutoService(BenchmarkStore.class)
public final class DatastoreBenchmarkStore implements BenchmarkStore {

    @Override
    public String name() {
        return "datastore";
    }

    @Override
    public int position() {
        return 75;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return run == Run.WAITING ? List.of() : List.of(DatastoreTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new DatastoreTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new DatastoreTarget(wire.http(WireFaultProxy.Store.DATASTORE, Emulators.datastore()));
    }
}
