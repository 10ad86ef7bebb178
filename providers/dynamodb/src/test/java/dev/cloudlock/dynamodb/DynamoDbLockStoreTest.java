package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** DynamoDB specifics on moto: configuration errors, the ShedLock-compatible layout, requests per operation. */
class DynamoDbLockStoreTest {

    private static final String ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final ExecutionInterceptor COUNTER = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            REQUESTS.incrementAndGet();
        }
    };
    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.moto(), COUNTER);

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetMoto(CLIENT);
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    private static CloudLockProvider sortKeyProvider(String table, String key, String sortKey) {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName(table)
                .partitionKey(key)
                .sortKey(sortKey, "LOCK#")
                .lockedBy("me")
                .build();
    }

    private static CloudLockProvider provider(String table, String key) {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName(table)
                .partitionKey(key)
                .lockedBy("me")
                .build();
    }

    @Test
    void aClientWithoutCredentialsIsASetupErrorSayingWhereTheSdkLookedNotThatTheStoreWasUnreachable() {
        // a real credentials chain that finds nothing on any machine: a profile nobody has
        AwsCredentialsProviderChain nothing = AwsCredentialsProviderChain.of(ProfileCredentialsProvider.builder()
                .profileName("cloudlock-test-no-such-profile")
                .build());
        try (DynamoDbClient noCredentials = DynamoDbBackends.builder(DynamoDbBackends.moto(), COUNTER)
                .credentialsProvider(nothing)
                .build()) {
            CloudLockProvider provider = DynamoDbLockProvider.builder()
                    .client(noCredentials)
                    .tableName("shedlock")
                    .lockedBy("no-credentials")
                    .build();
            REQUESTS.set(0);

            assertThatThrownBy(() -> provider.lock(config("no-credentials")))
                    .isInstanceOf(LockStoreConfigurationException.class)
                    .hasMessageContaining("was not sent: the client found no credentials")
                    .hasMessageContaining("cloudlock-test-no-such-profile")
                    .hasMessageNotContaining("could not be reached");
            assertThat(REQUESTS).as("nothing reached the store").hasValue(0);
        }
    }

    @Test
    void missingTableIsAClearError() {
        assertThatThrownBy(() -> provider("no-such-table", "_id").lock(config("job")))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("'no-such-table'")
                .hasMessageContaining("does not exist")
                .isInstanceOf(LockStoreConfigurationException.class);
    }

    @Test
    void tableWithAnotherKeyIsAClearError() {
        createTable("keyed-by-id", "id", false);
        assertThatThrownBy(() -> provider("keyed-by-id", "_id").lock(config("job")))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("partition key is 'id'")
                .hasMessageContaining("'_id'")
                .isInstanceOf(LockStoreConfigurationException.class);
        assertThat(provider("keyed-by-id", "id").lock(config("job")))
                .as("configured to match")
                .isPresent();
    }

    @Test
    void tableWithASortKeyIsAClearErrorThatNamesTheSetting() {
        createTable("with-sort-key", "_id", true);
        assertThatThrownBy(() -> provider("with-sort-key", "_id").lock(config("job")))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("sort key 'sk'")
                .hasMessageContaining("Set the sort key to 'sk'")
                .isInstanceOf(LockStoreConfigurationException.class);
    }

    @Test
    void aSortKeyConfiguredForATableWithoutOneIsAClearError() {
        assertThatThrownBy(() ->
                        sortKeyProvider(DynamoDbBackends.TABLE, "_id", "sk").lock(config("job")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("has no sort key")
                .hasMessageContaining("'sk'");
    }

    @Test
    void anotherSortKeyNameIsAClearError() {
        createTable("with-sort-key", "_id", true);
        assertThatThrownBy(() -> sortKeyProvider("with-sort-key", "_id", "SK").lock(config("job")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("sort key is 'sk'")
                .hasMessageContaining("'SK'");
    }

    @Test
    void lockItemsInAnApplicationsTableLeaveItsOtherItemsAlone() {
        createTable("app", "_id", true);
        Map<String, AttributeValue> profile = Map.of(
                "_id", AttributeValue.fromS("job"),
                "sk", AttributeValue.fromS("PROFILE"),
                "lockUntil", AttributeValue.fromS("application data"));
        CLIENT.putItem(b -> b.tableName("app").item(profile));

        FencedLock lock =
                sortKeyProvider("app", "_id", "sk").tryLock(config("job")).orElseThrow();
        lock.unlock();

        Map<String, AttributeValue> lockItem = CLIENT.getItem(b -> b.tableName("app")
                        .key(Map.of("_id", AttributeValue.fromS("job"), "sk", AttributeValue.fromS("LOCK#")))
                        .consistentRead(true))
                .item();
        assertThat(lockItem.get("owner").s()).isNotBlank();
        assertThat(lockItem.get("fence").n()).isEqualTo(Long.toString(lock.fencingToken()));
        assertThat(CLIENT.getItem(b -> b.tableName("app")
                                .key(Map.of("_id", AttributeValue.fromS("job"), "sk", AttributeValue.fromS("PROFILE")))
                                .consistentRead(true))
                        .item())
                .as("the application's item with the same partition key")
                .isEqualTo(profile);
    }

    @Test
    void aListingOfAnApplicationsTableShowsOnlyTheLockItemsWhereverThePagesEnd() {
        createTable("app", "_id", true);
        for (String id : List.of("a", "b", "c", "d")) {
            CLIENT.putItem(b -> b.tableName("app")
                    .item(Map.of("_id", AttributeValue.fromS(id), "sk", AttributeValue.fromS("PROFILE"))));
        }
        CloudLockProvider provider = sortKeyProvider("app", "_id", "sk");
        for (String name : List.of("b", "job-1", "job-2")) {
            provider.tryLock(config(name)).orElseThrow().unlock();
        }
        List<String> listed = new ArrayList<>();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.Page page = provider.admin().list(token.orElse(null), 1);
            page.locks().forEach(lock -> listed.add(lock.name()));
            token = page.nextPageToken();
            pages++;
        } while (token.isPresent() && pages < 100);
        assertThat(listed)
                .as("one item a page: pages also end on the application's items")
                .containsExactlyInAnyOrder("b", "job-1", "job-2");
        assertThat(pages).isGreaterThan(3);
    }

    @Test
    void setupCreatesATableWithTheSortKeyOnceAndRefusesATableWithout() {
        DynamoDbLockStore.SortKey sortKey = new DynamoDbLockStore.SortKey("sk", "LOCK#");
        CloudLockProvider provider = sortKeyProvider("created-by-setup", "pk", "sk");
        assertThat(provider.admin().init().created()).isTrue();
        assertThat(CLIENT.describeTable(b -> b.tableName("created-by-setup"))
                        .table()
                        .keySchema())
                .extracting(KeySchemaElement::attributeName, KeySchemaElement::keyType)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("pk", KeyType.HASH),
                        org.assertj.core.groups.Tuple.tuple(sortKey.name(), KeyType.RANGE));
        var again = provider.admin().init();
        assertThat(again.created()).isFalse();
        assertThat(again.description()).contains("sort key 'sk'");
        assertThat(provider.tryLock(config("job"))).isPresent();

        assertThatThrownBy(() -> sortKeyProvider(DynamoDbBackends.TABLE, "_id", "sk")
                        .admin()
                        .init())
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("has no sort key");
    }

    @Test
    void setupTurnsTheTableTtlOnForTheOccurrenceRecordsAttributeOnceOrSaysWhatToRun() {
        CloudLockProvider provider = DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("ttl-by-setup")
                .build();
        assertThat(provider.admin().init().description())
                .contains("turned TTL on for the occurrence records' attribute 'expiresAt'");
        assertThat(CLIENT.describeTimeToLive(b -> b.tableName("ttl-by-setup")).timeToLiveDescription())
                .satisfies(ttl -> assertThat(ttl.attributeName()).isEqualTo("expiresAt"))
                .satisfies(ttl -> assertThat(ttl.timeToLiveStatusAsString()).isIn("ENABLED", "ENABLING"));
        assertThat(provider.admin().init().description())
                .as("again: found on")
                .contains("TTL is on for the occurrence records' attribute 'expiresAt'");
        // dynalite has no UpdateTimeToLive: setup still succeeds and prints the command to run
        DynamoDbClient dynalite = DynamoDbBackends.client(DynamoDbBackends.dynalite());
        CloudLockProvider onDynalite = DynamoDbLockProvider.builder()
                .client(dynalite)
                .tableName("ttl-by-setup-" + System.nanoTime())
                .build();
        assertThat(onDynalite.admin().init().description())
                .contains("could not turn TTL on")
                .contains("aws dynamodb update-time-to-live --table-name")
                .contains("AttributeName=expiresAt");
    }

    @Test
    void aSortKeyMustNotBeALockField() {
        assertThatThrownBy(() -> DynamoDbLockProvider.builder().sortKey("lockUntil", "LOCK#"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lockUntil'");
        assertThatThrownBy(() -> DynamoDbLockProvider.builder().sortKey("sk", " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sort key value");
        assertThatThrownBy(() -> DynamoDbLockProvider.builder()
                        .client(CLIENT)
                        .tableName("t")
                        .sortKey("_id", "LOCK#")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sort key '_id'");
    }

    @Test
    void builderNamesWhatIsMissing() {
        assertThatThrownBy(() -> DynamoDbLockProvider.builder().tableName("t").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client");
        assertThatThrownBy(() -> DynamoDbLockProvider.builder().client(CLIENT).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tableName");
        assertThatThrownBy(() -> DynamoDbLockProvider.builder()
                        .client(CLIENT)
                        .tableName(" ")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tableName");
    }

    @Test
    void writesShedLocksLayoutPlusOurFields() {
        FencedLock lock = provider(DynamoDbBackends.TABLE, "_id")
                .tryLock(config("report"))
                .orElseThrow();
        Map<String, AttributeValue> item = rawItem("report");
        assertThat(item.get("_id").s()).isEqualTo("report");
        assertThat(item.get("lockUntil").s()).matches(ISO);
        assertThat(item.get("lockedAt").s()).matches(ISO);
        assertThat(item.get("lockedBy").s()).isEqualTo("me");
        assertThat(item.get("owner").s()).isNotBlank();
        assertThat(item.get("fence").n()).isEqualTo(Long.toString(lock.fencingToken()));
        lock.unlock();
    }

    @Test
    void takesOverARecordWrittenByShedLocksProvider() {
        Instant now = Instant.now();
        putShedLockRecord("held-by-shedlock", now.plusSeconds(60));
        putShedLockRecord("released-by-shedlock", now.minusSeconds(1));
        CloudLockProvider provider = provider(DynamoDbBackends.TABLE, "_id");
        assertThat(provider.lock(config("held-by-shedlock")))
                .as("lockUntil in the future")
                .isEmpty();
        FencedLock taken = provider.tryLock(config("released-by-shedlock")).orElseThrow();
        assertThat(taken.fencingToken()).isEqualTo(1);
        taken.unlock();
    }

    /** A token was read as the lock name to start at: 'garbage' answered a page, from the name 'garbage' on. */
    @Test
    void aPageTokenThisStoreDidNotMakeIsRefusedAndItsOwnTokensPageOn() {
        CloudLockProvider provider = provider(DynamoDbBackends.TABLE, "_id");
        for (String name : List.of("a", "b", "c")) {
            provider.tryLock(config(name)).orElseThrow().unlock();
        }
        for (String garbage : List.of("garbage", "b", "d1.!!", "d1.YWJj")) {
            assertThatThrownBy(() -> provider.store().list(garbage, 10))
                    .as(garbage)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + garbage + "' is no page token of this table's listing");
        }
        List<String> names = new ArrayList<>();
        String token = null;
        do {
            dev.cloudlock.spi.LockRecordPage page = provider.store().list(token, 1);
            page.records().forEach(record -> names.add(record.name()));
            token = page.nextPageToken();
        } while (token != null);
        assertThat(names).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void oneRequestPerOperation() {
        CloudLockProvider provider = provider(DynamoDbBackends.TABLE, "_id");
        REQUESTS.set(0);
        FencedLock first = provider.tryLock(config("rt")).orElseThrow();
        assertThat(REQUESTS.getAndSet(0))
                .as("first acquire of a process: one read for the store's time, then the write")
                .isEqualTo(2);
        FencedLock extended =
                (FencedLock) first.extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow();
        assertThat(REQUESTS.getAndSet(0)).as("extend").isEqualTo(1);
        assertThat(provider.lock(config("rt"))).isEmpty();
        assertThat(REQUESTS.getAndSet(0))
                .as("lost race, with the old item returned")
                .isEqualTo(1);
        extended.unlock();
        assertThat(REQUESTS.getAndSet(0)).as("release").isEqualTo(1);
        provider.tryLock(config("rt")).orElseThrow().unlock();
        assertThat(REQUESTS.getAndSet(0)).as("steady-state acquire + release").isEqualTo(2);
    }

    @Test
    void responsesFeedTheClockSkewMonitor() {
        CloudLockProvider provider = provider(DynamoDbBackends.TABLE, "_id");
        for (int i = 0; i < 5; i++) {
            provider.tryLock(config("skew")).orElseThrow().unlock();
        }
        assertThat(provider.store().clockSkewMonitor()).isPresent();
        var estimate = provider.store().clockSkewMonitor().get().estimate().orElseThrow();
        assertThat(estimate.samples()).isGreaterThanOrEqualTo(2);
        // moto runs on this machine's clock: the true offset is 0, so 0 lies within the reported bound
        assertThat(estimate.offset().abs()).isLessThanOrEqualTo(estimate.errorBound());
    }

    private static Map<String, AttributeValue> rawItem(String name) {
        return CLIENT.getItem(b -> b.tableName(DynamoDbBackends.TABLE)
                        .key(Map.of("_id", AttributeValue.fromS(name)))
                        .consistentRead(true))
                .item();
    }

    private static void putShedLockRecord(String name, Instant lockUntil) {
        CLIENT.putItem(b -> b.tableName(DynamoDbBackends.TABLE)
                .item(Map.of(
                        "_id", AttributeValue.fromS(name),
                        "lockUntil", AttributeValue.fromS(dev.cloudlock.spi.IsoTimestamps.format(lockUntil)),
                        "lockedAt", AttributeValue.fromS(dev.cloudlock.spi.IsoTimestamps.format(Instant.now())),
                        "lockedBy", AttributeValue.fromS("shedlock-host"))));
    }

    private static void createTable(String table, String key, boolean withSortKey) {
        CLIENT.createTable(b -> {
            b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST);
            if (withSortKey) {
                b.attributeDefinitions(
                                AttributeDefinition.builder()
                                        .attributeName(key)
                                        .attributeType(ScalarAttributeType.S)
                                        .build(),
                                AttributeDefinition.builder()
                                        .attributeName("sk")
                                        .attributeType(ScalarAttributeType.S)
                                        .build())
                        .keySchema(
                                KeySchemaElement.builder()
                                        .attributeName(key)
                                        .keyType(KeyType.HASH)
                                        .build(),
                                KeySchemaElement.builder()
                                        .attributeName("sk")
                                        .keyType(KeyType.RANGE)
                                        .build());
            } else {
                b.attributeDefinitions(AttributeDefinition.builder()
                                .attributeName(key)
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(KeySchemaElement.builder()
                                .attributeName(key)
                                .keyType(KeyType.HASH)
                                .build());
            }
        });
    }
}
