package dev.cloudlock.benchmarks;

import com.google.auto.service.AutoService;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.WireFaultProxy;
import java.util.List;
import java.util.function.Supplier;

/**
 * DynamoDB in the benchmarks: on dynalite and on moto in the lock-cycle and every-occurrence reports, on dynalite in
 * the waiting report and the soak, on moto in the listing report.
 */
@AutoService(BenchmarkStore.class)
public final class DynamoDbBenchmarkStore implements BenchmarkStore {

    private static final String DYNALITE = "DynamoDB on dynalite 4.0.0";
    private static final String MOTO = "DynamoDB on moto 5.2.1 (requests serialised)";

    @Override
    public String name() {
        return "dynamodb";
    }

    @Override
    public int position() {
        return 10;
    }

    @Override
    public List<Supplier<LockCycleBenchmark.Target>> targets(Run run) {
        Supplier<LockCycleBenchmark.Target> dynalite = this::soakTarget;
        Supplier<LockCycleBenchmark.Target> moto =
                () -> new DynamoDbTarget(MOTO, Emulators.moto().endpoint());
        return switch (run) {
            case LOCK_CYCLE, EVERY_OCCURRENCE -> List.of(dynalite, moto);
            case WAITING -> List.of(dynalite);
            case LISTING -> List.of(moto);
        };
    }

    @Override
    public LockCycleBenchmark.Target soakTarget() {
        return new DynamoDbTarget(DYNALITE, Emulators.dynalite().endpoint());
    }

    @Override
    public LockCycleBenchmark.Target soakTarget(FaultWire wire) {
        return new DynamoDbTarget(DYNALITE, wire.http(WireFaultProxy.Store.DYNAMODB, Emulators.dynalite()));
    }
}
