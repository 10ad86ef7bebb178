package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Blob Storage in the benchmarks: on Azurite in the lock-cycle, every-occurrence and listing reports and the soak
 * (with faults, on an Azurite of its own); the waiting report leaves it out.
 */
@AutoService(BenchmarkStore.class)
public final class AzureBlobBenchmarkStore implements BenchmarkStore {

    /**
     * How often the soak's Azurite collects overwritten blob contents: not within a soak. Azurite stops answering
     * while it collects: at its fixed 10 minutes, the first collection (after about 120,000 writes to one blob)
     * stalled it for more than 13 minutes; every minute, it stalled for one to two minutes each time, longer each
     * time. A soak's overwritten contents (a few hundred bytes each) stay in memory instead. See
     * {@link Emulators#startAzurite(Duration)}.
     */
    private static final Duration AZURITE_GC_INTERVAL = Duration.ofDays(1);

    @Override
    public String name() {
        return "azure-blob";
    }

    @Override
    public int position() {
        return 50;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return run == Run.WAITING ? List.of() : List.of(AzureBlobTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new AzureBlobTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new AzureBlobTarget(
                wire.http(WireFaultProxy.Store.AZURE_BLOB, Emulators.startAzurite(AZURITE_GC_INTERVAL)));
    }
}
