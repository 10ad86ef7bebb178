package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 provider on moto, with every request counted on the wire by operation. */
final class S3Target implements LockCycleBenchmark.Target {

    /** S3 Standard, us-east-1: USD per million PUT and GET requests. */
    static final double PUT_PRICE = 5.00;

    static final double GET_PRICE = 0.40;
    private static final String BUCKET = "bench-locks";
    /** A body the size of a lock record. */
    private static final String FLOOR_BODY = "{\"lockUntil\":\"2000-01-01T00:00:00.000Z\",\"lockedAt\":"
            + "\"2000-01-01T00:00:00.000Z\",\"lockedBy\":\"bench-host/1234\",\"owner\":"
            + "\"0f8fad5b-d9cb-469f-a165-70867728950e\",\"fence\":%d}";

    private final String name;
    private final S3Client client;
    private final RequestCounts requests = new RequestCounts();
    private final Map<String, String> floorETags = new java.util.HashMap<>();
    /**
     * Where this target's floor objects live: its own keys, since the emulator outlives it and another target of the
     * same JVM may have created the same names (a first floor write is conditioned on the object being absent).
     */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    private long floorFence;

    S3Target(String name, String endpoint) {
        this.name = name;
        this.client = S3Client.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("b", "b")))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(Apache5HttpClient.builder()
                        .expectContinueEnabled(false)
                        .maxConnections(32)
                        .build())
                .overrideConfiguration(c -> c.addExecutionInterceptor(requests.awsInterceptor()))
                .build();
        client.createBucket(b -> b.bucket(BUCKET));
        drainRequests();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return S3LockProvider.builder()
                .client(client)
                .bucket(BUCKET)
                .prefix("shedlock/")
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One conditional PUT ({@code If-Match} the object's current ETag) of a lock-sized body. */
    @Override
    public void floorWrite(String name) {
        String key = floorPrefix + name;
        String body = String.format(FLOOR_BODY, ++floorFence);
        String etag = floorETags.get(key);
        floorETags.put(
                key,
                etag == null
                        ? client.putObject(
                                        b -> b.bucket(BUCKET).key(key).ifNoneMatch("*"), RequestBody.fromString(body))
                                .eTag()
                        : client.putObject(b -> b.bucket(BUCKET).key(key).ifMatch(etag), RequestBody.fromString(body))
                                .eTag());
    }

    @Override
    public void floorRead(String name) {
        String key = floorPrefix + name;
        client.getObjectAsBytes(b -> b.bucket(BUCKET).key(key));
    }

    @Override
    public double pricePerMillion(String operation) {
        return operation.equals("GetObject") ? GET_PRICE : PUT_PRICE;
    }

    @Override
    public String prices() {
        return "S3 Standard, us-east-1: $0.005 per 1,000 PUT and $0.0004 per 1,000 GET requests (list prices as"
                + " recorded 2026-11-30); a lock object is about 200 bytes, storage is negligible.";
    }

    /** The object's body plus its key (S3 Standard stores both; no per-object overhead on that class). */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        String key =
                "shedlock/" + dev.cloudlock.spi.ObjectKeys.relativeKey(lockName, dev.cloudlock.spi.ObjectKeys::encode);
        long body = client.headObject(b -> b.bucket(BUCKET).key(key)).contentLength();
        return new LockCycleBenchmark.StoredSize(
                body + key.length(), "JSON body " + body + " B + key " + key.length() + " B");
    }

    @Override
    public void close() {
        client.close();
    }
}
