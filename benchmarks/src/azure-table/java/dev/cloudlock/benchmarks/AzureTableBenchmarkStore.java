package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.util.List;
import java.util.function.Supplier;

/**
 * Table Storage in the benchmarks: on Azurite's table service in the lock-cycle, every-occurrence and listing reports
 * and the soak (with faults, through the wire proxy in front of it); the waiting report leaves it out.
 */
@AutoService(BenchmarkStore.class)
public final class AzureTableBenchmarkStore implements BenchmarkStore {

    @Override
    public String name() {
        return "azure-table";
    }

    @Override
    public int position() {
        return 60;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return run == Run.WAITING ? List.of() : List.of(AzureTableTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new AzureTableTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new AzureTableTarget(wire.http(WireFaultProxy.Store.AZURE_TABLE, Emulators.azuriteTable()));
    }
}
