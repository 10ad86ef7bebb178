package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.util.List;
import java.util.function.Supplier;

/** Cosmos DB in the benchmarks: on our launcher of {@code @vercel/cosmosdb-server} in every report and the soak. */
@AutoService(BenchmarkStore.class)
public final class CosmosBenchmarkStore implements BenchmarkStore {

    @Override
    public String name() {
        return "cosmos";
    }

    @Override
    public int position() {
        return 40;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        return List.of(CosmosTarget::new);
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new CosmosTarget();
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new CosmosTarget(wire.proxy(WireFaultProxy.https(
                WireFaultProxy.Store.COSMOS,
                wire.faults(),
                Emulators.cosmos().port(),
                Emulators.cosmosKeyStore(),
                Emulators.COSMOS_TLS_PASSWORD.toCharArray())));
    }
}
