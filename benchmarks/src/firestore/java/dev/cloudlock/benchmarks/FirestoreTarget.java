package dev.cloudlock.benchmarks;

import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.tracing.ApiTracer;
import com.google.api.gax.tracing.ApiTracerFactory;
import com.google.api.gax.tracing.BaseApiTracer;
import com.google.api.gax.tracing.SpanName;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import com.google.cloud.firestore.Precondition;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.FirestoreEmulatorOwner;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.firestore.FirestorePaths;
import io.grpc.ClientInterceptor;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/** The Firestore provider on the Cloud Firestore emulator, with every RPC counted by method. */
final class FirestoreTarget implements LockCycleBenchmark.Target {

    /** Firestore Native mode, single region (us-central1): USD per million document reads and writes. */
    static final double READ_PRICE = 0.30;

    static final double WRITE_PRICE = 0.90;

    private final RequestCounts requests = new RequestCounts();
    private final Firestore client;
    private final Map<String, Timestamp> floorUpdateTimes = new java.util.HashMap<>();
    /**
     * Where this target\'s floor documents live: its own ids, since the emulator outlives it and another target of the
     * same JVM may have created the same names (a first floor write creates the document).
     */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    FirestoreTarget() {
        this(null);
    }

    /**
     * A client whose channel runs every call through {@code interceptor} (a {@code WireFaultInterceptor}); with
     * {@code null}, the emulator-host setting's own channel.
     */
    FirestoreTarget(@Nullable ClientInterceptor interceptor) {
        ApiTracerFactory counter =
                (ApiTracer parent, SpanName span, ApiTracerFactory.OperationType type) -> new BaseApiTracer() {
                    @Override
                    public void attemptStarted(Object request, int attemptNumber) {
                        requests.add(span.getMethodName());
                    }
                };
        String host = "127.0.0.1:" + Emulators.firestore().port();
        FirestoreOptions.Builder options = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setApiTracerFactory(counter);
        if (interceptor == null) {
            options.setEmulatorHost(host);
        } else {
            options.setHost(host)
                    .setCredentials(FirestoreEmulatorOwner.INSTANCE)
                    .setChannelProvider(InstantiatingGrpcChannelProvider.newBuilder()
                            .setEndpoint(host)
                            .setChannelConfigurator(
                                    channel -> channel.usePlaintext().intercept(interceptor))
                            .build());
        }
        client = options.build().getService();
    }

    @Override
    public String name() {
        return "Firestore on the Cloud Firestore emulator";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return FirestoreLockProvider.builder()
                .firestore(client)
                .collection("shedlock")
                .lockedBy(lockedBy)
                .build();
    }

    /** A provider on the store's path before it acquired from its own release: every acquisition reads first. */
    CloudLockProvider oldPathProvider(String lockedBy) {
        return FirestorePaths.provider(client, "shedlock", lockedBy, false);
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One update preconditioned on the document's last update time, of a lock-sized document. */
    @Override
    public void floorWrite(String name) {
        String key = floorPrefix + name;
        DocumentReference doc = client.collection("floor").document(key);
        Map<String, Object> fields = Map.of(
                "lockUntil",
                Timestamp.now(),
                "lockedAt",
                Timestamp.now(),
                "lockedBy",
                "bench-host/1234",
                "owner",
                "0f8fad5b-d9cb-469f-a165-70867728950e",
                "fence",
                1L);
        try {
            Timestamp last = floorUpdateTimes.get(key);
            floorUpdateTimes.put(
                    key,
                    last == null
                            ? doc.create(fields).get().getUpdateTime()
                            : doc.update(fields, Precondition.updatedAt(last))
                                    .get()
                                    .getUpdateTime());
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("floor write failed", e);
        }
    }

    @Override
    public void floorRead(String name) {
        String key = floorPrefix + name;
        try {
            client.collection("floor").document(key).get().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("floor read failed", e);
        }
    }

    @Override
    public double pricePerMillion(String operation) {
        return operation.equals("Commit") ? WRITE_PRICE : READ_PRICE;
    }

    @Override
    public String prices() {
        return "Firestore Native mode, us-central1: $0.03 per 100,000 document reads and $0.09 per 100,000 writes"
                + " (list prices as recorded 2026-11-30; multi-region locations cost about twice as much). One"
                + " BatchGetDocuments of one document is one read; one Commit of one write is one write.";
    }

    /**
     * Firestore's storage size of the document: its name (collection and document ids, each UTF-8 + 1, plus 16),
     * each field (name UTF-8 + 1, plus its value: a string UTF-8 + 1, an integer or timestamp 8, null 1), plus 32.
     */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        Map<String, Object> fields;
        try {
            fields = client.collection("shedlock")
                    .document(dev.cloudlock.firestore.FirestoreDocumentIds.encode(lockName))
                    .get()
                    .get()
                    .getData();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        long bytes = size("shedlock") + size(dev.cloudlock.firestore.FirestoreDocumentIds.encode(lockName)) + 16 + 32;
        for (Map.Entry<String, Object> field :
                java.util.Objects.requireNonNull(fields).entrySet()) {
            Object value = field.getValue();
            bytes += size(field.getKey()) + (value instanceof String text ? size(text) : value == null ? 1 : 8);
        }
        return new LockCycleBenchmark.StoredSize(bytes, "document size (" + fields.size() + " fields)");
    }

    private static int size(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1;
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
