package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.testkit.WireFaultInterceptor;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Cloud Spanner in the benchmarks: on the Cloud Spanner emulator in the lock-cycle, every-occurrence and listing
 * reports and the soak (its faults through a {@link WireFaultInterceptor} on the commits); the waiting report leaves
 * it out.
 */
@AutoService(BenchmarkStore.class)
public final class SpannerBenchmarkStore implements BenchmarkStore {

    @Override
    public String name() {
        return "spanner";
    }

    @Override
    public int position() {
        return 70;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return run == Run.WAITING ? List.of() : List.of(SpannerTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new SpannerTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new SpannerTarget(new WireFaultInterceptor(wire.faults(), Set.of("Commit")));
    }
}
