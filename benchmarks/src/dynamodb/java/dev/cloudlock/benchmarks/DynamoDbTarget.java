package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.spi.IsoTimestamps;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.ClockProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** The DynamoDB provider on one emulator, with every request counted on the wire by operation. */
final class DynamoDbTarget implements LockCycleBenchmark.Target {

    /** DynamoDB on-demand, us-east-1: USD per million write / read request units. */
    static final double WRITE_PRICE = 0.625;

    static final double READ_PRICE = 0.125;

    private final String name;
    private final DynamoDbClient client;
    private final RequestCounts requests = new RequestCounts();

    DynamoDbTarget(String name, String endpoint) {
        this.name = name;
        this.client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("b", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(requests.awsInterceptor()))
                .build();
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .build()
                .admin()
                .init();
        drainRequests();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One conditional UpdateItem of a lock-sized item: the physical floor of an acquire, release or extend. */
    @Override
    public void floorWrite(String key) {
        client.updateItem(b -> b.tableName("shedlock")
                .key(Map.of("_id", AttributeValue.fromS(key)))
                .updateExpression("SET lockUntil = :u, lockedAt = :a, lockedBy = :b, #o = :o ADD fence :one")
                .conditionExpression("attribute_not_exists(lockUntil) OR lockUntil <= :a")
                .expressionAttributeNames(Map.of("#o", "owner"))
                .expressionAttributeValues(Map.of(
                        ":u",
                        AttributeValue.fromS("2000-01-01T00:00:00.000Z"),
                        ":a",
                        AttributeValue.fromS("2000-01-01T00:00:00.000Z"),
                        ":b",
                        AttributeValue.fromS("bench-host/1234"),
                        ":o",
                        AttributeValue.fromS("0f8fad5b-d9cb-469f-a165-70867728950e"),
                        ":one",
                        AttributeValue.fromN("1"))));
    }

    /**
     * ShedLock's DynamoDB provider's two requests, as it sends them (facts of its wire format, not its code): an
     * {@code UpdateItem} setting {@code lockUntil}, {@code lockedAt} and {@code lockedBy} on the condition that the
     * lease is over or absent, and an unconditional {@code UpdateItem} of {@code lockUntil}, both returning the
     * updated attributes.
     */
    @Override
    public Optional<Consumer<String>> shedLockCycle() {
        return Optional.of(key -> {
            Instant now = ClockProvider.now();
            client.updateItem(b -> b.tableName("shedlock")
                    .key(Map.of("_id", AttributeValue.fromS(key)))
                    .updateExpression("set lockUntil = :lockUntil, lockedAt = :lockedAt, lockedBy = :lockedBy")
                    .conditionExpression("lockUntil <= :lockedAt or attribute_not_exists(lockUntil)")
                    .expressionAttributeValues(Map.of(
                            ":lockUntil",
                            AttributeValue.fromS(IsoTimestamps.format(now.plus(Duration.ofMinutes(5)))),
                            ":lockedAt",
                            AttributeValue.fromS(IsoTimestamps.format(now)),
                            ":lockedBy",
                            AttributeValue.fromS("bench-host")))
                    .returnValues(ReturnValue.UPDATED_NEW));
            client.updateItem(b -> b.tableName("shedlock")
                    .key(Map.of("_id", AttributeValue.fromS(key)))
                    .updateExpression("set lockUntil = :lockUntil")
                    .expressionAttributeValues(
                            Map.of(":lockUntil", AttributeValue.fromS(IsoTimestamps.format(ClockProvider.now()))))
                    .returnValues(ReturnValue.UPDATED_NEW));
        });
    }

    @Override
    public void floorRead(String key) {
        client.getItem(b -> b.tableName("shedlock")
                .key(Map.of("_id", AttributeValue.fromS(key)))
                .consistentRead(true));
    }

    @Override
    public double pricePerMillion(String operation) {
        return operation.equals("GetItem") ? READ_PRICE : WRITE_PRICE;
    }

    @Override
    public String prices() {
        return "DynamoDB on-demand, us-east-1: $" + WRITE_PRICE + " per million write request units, $" + READ_PRICE
                + " per million read request units (list prices since the November 2024 reduction, as recorded"
                + " 2026-11-30). A lock item is about 200 bytes: 1 WRU per write, 1 RRU per strongly consistent read.";
    }

    /** DynamoDB's item size: each attribute's name plus its value (a string's UTF-8, a number's digits / 2 + 1). */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        Map<String, AttributeValue> item = client.getItem(b -> b.tableName("shedlock")
                        .key(Map.of("_id", AttributeValue.fromS(lockName)))
                        .consistentRead(true))
                .item();
        long bytes = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            bytes += utf8(attribute.getKey());
            AttributeValue value = attribute.getValue();
            if (value.s() != null) {
                bytes += utf8(value.s());
            } else if (value.n() != null) {
                bytes += (value.n()
                                                .replaceAll("[^0-9]", "")
                                                .replaceFirst("^0+(?=.)", "")
                                                .length()
                                        + 1)
                                / 2
                        + 1;
            } else {
                bytes += 1;
            }
        }
        return new LockCycleBenchmark.StoredSize(bytes, "item size (" + item.size() + " attributes)");
    }

    private static int utf8(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    @Override
    public void close() {
        client.close();
    }
}
