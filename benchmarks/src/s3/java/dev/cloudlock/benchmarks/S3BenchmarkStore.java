package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.util.List;
import java.util.function.Supplier;

/** S3 in the benchmarks: on moto in every report and the soak. */
@AutoService(BenchmarkStore.class)
public final class S3BenchmarkStore implements BenchmarkStore {

    private static final String MOTO = "S3 on moto 5.2.1 (requests serialised)";

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public int position() {
        return 20;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return List.of(this::soakTarget);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new S3Target(MOTO, Emulators.moto().endpoint());
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new S3Target(MOTO, wire.http(WireFaultProxy.Store.S3, Emulators.moto()));
    }
}
