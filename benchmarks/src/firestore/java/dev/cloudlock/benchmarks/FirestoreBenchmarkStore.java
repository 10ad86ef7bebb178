package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.testkit.WireFaultInterceptor;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Firestore in the benchmarks: on the Cloud Firestore emulator in every report and the soak (its faults through a
 * {@link WireFaultInterceptor} on the gRPC channel), and its own {@code --firestore-cycle} report.
 */
@AutoService(BenchmarkStore.class)
public final class FirestoreBenchmarkStore implements BenchmarkStore {

    @Override
    public String name() {
        return "firestore";
    }

    @Override
    public int position() {
        return 30;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return List.of(FirestoreTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new FirestoreTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new FirestoreTarget(new WireFaultInterceptor(wire.faults(), WireFaultInterceptor.FIRESTORE_WRITES));
    }

    @Override
    public Map<String, OwnReport> ownReports() {
        return Map.of("firestore-cycle", FirestoreCycleBenchmark::run);
    }
}
