package dev.cloudlock.benchmarks;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.util.HashMap;
import java.util.Map;

/** The Blob Storage provider on Azurite, with every request counted on the wire by HTTP method (Get / Put Blob). */
final class AzureBlobTarget implements LockCycleBenchmark.Target {

    /**
     * Blob Storage, Hot tier, LRS: USD per million write operations (Put Blob) and read operations (Get Blob). List
     * prices as last known for East US, not re-checked on this machine (no access to the pricing page).
     */
    static final double WRITE_PRICE = 6.50;

    static final double READ_PRICE = 0.50;
    /** A body the size of a lock record. */
    private static final String FLOOR_BODY = "{\"lockUntil\":\"2000-01-01T00:00:00.000Z\",\"lockedAt\":"
            + "\"2000-01-01T00:00:00.000Z\",\"lockedBy\":\"bench-host/1234\",\"owner\":"
            + "\"0f8fad5b-d9cb-469f-a165-70867728950e\",\"fence\":%d}";

    private final RequestCounts requests = new RequestCounts();
    private final BlobContainerClient container;
    private final Map<String, String> floorETags = new HashMap<>();
    /**
     * Where this target's floor objects live: its own keys, since the emulator outlives it and another target of the
     * same JVM may have created the same names (a first floor write is conditioned on the object being absent).
     */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    private long floorFence;

    AzureBlobTarget() {
        this(Emulators.azurite().endpoint());
    }

    /**
     * A client of Azurite at {@code endpoint} (the emulator, or a proxy in front of it) that retries after 50 ms to
     * 0.5 s rather than the SDK's 4 s and more, so that a fault on the wire costs a soak a moment (without faults,
     * nothing is retried).
     */
    AzureBlobTarget(String endpoint) {
        container = new BlobContainerClientBuilder()
                .connectionString(Emulators.azuriteConnectionString(endpoint))
                .containerName("bench-locks")
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 4, (Integer) null, 50L, 500L, null))
                .addPolicy(new CountingPolicy(requests))
                .buildClient();
        container.createIfNotExists();
        drainRequests();
    }

    @Override
    public String name() {
        return "Azure Blob Storage on Azurite 3.35.0";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return AzureBlobLockProvider.builder()
                .container(container)
                .prefix("shedlock/")
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One conditional Put Blob ({@code If-Match} the blob's current ETag) of a lock-sized body. */
    @Override
    public void floorWrite(String name) {
        String key = floorPrefix + name;
        String etag = floorETags.get(key);
        BlockBlobSimpleUploadOptions upload = new BlockBlobSimpleUploadOptions(
                        BinaryData.fromString(String.format(FLOOR_BODY, ++floorFence)))
                .setRequestConditions(
                        etag == null
                                ? new BlobRequestConditions().setIfNoneMatch("*")
                                : new BlobRequestConditions().setIfMatch(etag));
        floorETags.put(
                key,
                container
                        .getBlobClient(key)
                        .getBlockBlobClient()
                        .uploadWithResponse(upload, null, null)
                        .getValue()
                        .getETag());
    }

    @Override
    public void floorRead(String name) {
        String key = floorPrefix + name;
        container.getBlobClient(key).downloadContent();
    }

    @Override
    public double pricePerMillion(String operation) {
        return operation.equals("Get Blob") ? READ_PRICE : WRITE_PRICE;
    }

    @Override
    public String prices() {
        return "Blob Storage Hot tier, LRS, East US: $0.065 per 10,000 write operations (Put Blob) and $0.005 per"
                + " 10,000 read operations (Get Blob) (list prices as last known, not re-checked here: check"
                + " azure.microsoft.com/pricing/details/storage/blobs); a lock blob is about 200 bytes, storage is"
                + " negligible.";
    }

    /** The blob's content plus its name. */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        String blob =
                "shedlock/" + dev.cloudlock.spi.ObjectKeys.relativeKey(lockName, dev.cloudlock.spi.ObjectKeys::encode);
        long body = container.getBlobClient(blob).getProperties().getBlobSize();
        return new LockCycleBenchmark.StoredSize(
                body + blob.length(), "JSON body " + body + " B + name " + blob.length() + " B");
    }

    @Override
    public void close() {
        // the container client holds no resources of its own; Azurite stops with the JVM
    }

    /** Counts each request the client sends (retries included) as {@code Get Blob} or {@code Put Blob}. */
    private static final class CountingPolicy extends HttpPipelineSyncPolicy {
        private final RequestCounts requests;

        CountingPolicy(RequestCounts requests) {
            this.requests = requests;
        }

        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            String method = context.getHttpRequest().getHttpMethod().toString();
            requests.add(method.equals("GET") ? "Get Blob" : method.equals("PUT") ? "Put Blob" : method);
        }
    }
}
