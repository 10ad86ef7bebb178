package dev.cloudlock.dynamodb;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.IsoTimestamps;
import dev.cloudlock.spi.LockFields;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.NotALockRecordException;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreErrors;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.spi.StoreState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * A {@link dev.cloudlock.spi.LockStore} on DynamoDB: one item per lock, one conditional {@code UpdateItem} per
 * acquire, release and extend (the acquisition is an upsert, so the first-ever acquisition is the same single call).
 *
 * <p>Item layout, the same as ShedLock's own DynamoDB provider so a fleet can switch providers on the same table:
 * partition key {@code _id} (configurable, string) = lock name; optionally a string sort key with one fixed value for
 * every lock item ({@link SortKey}, e.g. {@code sk = "LOCK#"}), so the locks can live in an application's existing
 * single table; {@code lockUntil}, {@code lockedAt} as fixed-width
 * ISO-8601 UTC strings ({@link IsoTimestamps}); {@code lockedBy}; plus {@code owner} (the acquisition's token),
 * {@code fence} (number, +1 per acquisition) and {@code lastTick} (ISO string). Conditions compare the client's time
 * with {@code lockUntil}; the {@code Date} header of every response feeds a {@link ClockSkewMonitor}. Release and
 * extend are conditioned on the holding's owner token and the {@code lockedAt} its acquisition wrote, which every
 * acquisition rewrites (ShedLock's too, which leaves {@code owner} as it was).
 *
 * <p>A lost race returns the item that failed the condition ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD});
 * where a backend omits it, core reads it with one {@code GetItem}.
 */
public final class DynamoDbLockStore implements LockStore {

    /**
     * The sort key of a table keyed by partition key and sort key: every lock item carries {@code value} in the
     * string attribute {@code name}, and the lock name in the partition key, so lock items sit beside the
     * application's own items without colliding with them (give them a value no other item uses).
     *
     * @param name the table's sort key attribute, e.g. {@code sk}
     * @param value the sort key of every lock item, e.g. {@code LOCK#}
     */
    public record SortKey(String name, String value) {
        public SortKey {
            requireText(name, "sort key name");
            requireText(value, "sort key value");
            if (LockFields.ALL.contains(name)) {
                throw new IllegalArgumentException("sort key name '" + name
                        + "' is a lock record field; the table's sort key must be another" + " attribute");
            }
        }
    }

    private static final Map<String, String> NAMES = Map.of(
            "#lockUntil",
            LOCK_UNTIL,
            "#lockedAt",
            LOCKED_AT,
            "#lockedBy",
            LOCKED_BY,
            "#owner",
            OWNER,
            "#fence",
            FENCE,
            "#lastTick",
            WATERMARK,
            "#expiresAt",
            LockFields.EXPIRES_AT);
    private static final String ACQUIRE = "SET #lockUntil = :lockUntil, #lockedAt = :now, #lockedBy = :lockedBy,"
            + " #owner = :owner ADD #fence :one";
    private static final String FREE = "(attribute_not_exists(#lockUntil) OR #lockUntil <= :now)";
    /** Error codes of credentials DynamoDB does not accept: unknown, expired, or signed with the wrong secret. */
    private static final Set<String> CREDENTIALS_REJECTED = Set.of(
            "UnrecognizedClientException",
            "InvalidSignatureException",
            "MissingAuthenticationTokenException",
            "IncompleteSignatureException",
            "ExpiredTokenException");

    /** What locking needs; listing and setup, done by operators, need more. */
    private static final String LOCKING = "dynamodb:GetItem and dynamodb:UpdateItem (and dynamodb:DescribeTable to"
            + " diagnose a key schema that does not match)";

    private static final Map<String, String> PERMISSIONS =
            Map.of("list", "dynamodb:Scan", "setup", "dynamodb:DescribeTable and dynamodb:CreateTable");

    /** What every page token of this store starts with ({@link #pageToken}). */
    private static final String PAGE_TOKEN_MARK = "d1.";

    private static final String TICK_OPEN = " AND (attribute_not_exists(#lastTick) OR #lastTick < :tick)";

    private final DynamoDbClient client;
    private final String tableName;
    private final String partitionKey;
    private final @Nullable SortKey sortKey;
    private final ClockSkewMonitor clockSkew;
    private final CallTimeouts timeouts;
    private volatile @Nullable Deadline lastDeadline;

    /**
     * @param client the DynamoDB client (its region, credentials and HTTP client are the caller's choice)
     * @param tableName the lock table, with a string partition key named {@code partitionKey}
     * @param partitionKey the table's partition key attribute, {@code _id} in ShedLock's layout
     * @param sortKey the table's sort key and the value lock items use; {@code null} for a table with a partition key
     *     only
     * @param clockSkew fed with the {@code Date} header of every response; warns when DynamoDB's clock and ours
     *     certainly differ by more than its tolerance
     * @param timeouts the deadline of every request (total and per attempt), set on each request so it bounds any
     *     client; capped at the lease each request protects
     */
    DynamoDbLockStore(
            DynamoDbClient client,
            String tableName,
            String partitionKey,
            @Nullable SortKey sortKey,
            ClockSkewMonitor clockSkew,
            CallTimeouts timeouts) {
        this.client = Objects.requireNonNull(client, "client");
        this.tableName = requireText(tableName, "tableName");
        this.partitionKey = requireText(partitionKey, "partitionKey");
        if (sortKey != null && (sortKey.name().equals(partitionKey) || LockFields.ALL.contains(partitionKey))) {
            throw new IllegalArgumentException("partition key '" + partitionKey + "' and sort key '" + sortKey.name()
                    + "' must be two attributes other than the lock record's fields");
        }
        this.sortKey = sortKey;
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        CallTimeouts deadline = timeouts.forAcquire(request);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":lockUntil", time(request.lockUntilAt(request.now())));
        AttributeValue lockedAt = time(request.now());
        values.put(":now", lockedAt);
        values.put(":lockedBy", text(request.lockedBy()));
        values.put(":owner", text(request.owner()));
        values.put(":one", AttributeValue.fromN("1"));
        String condition = FREE;
        if (request.tick() != null) {
            values.put(":tick", time(request.tick()));
            condition += TICK_OPEN;
        }
        String acquire = ACQUIRE;
        if (request.expiresAt() != null) {
            // An occurrence record's TTL attribute: epoch seconds, rounded up so it never expires early.
            values.put(":expiresAt", AttributeValue.fromN(Long.toString(ttlSeconds(request.expiresAt()))));
            acquire = ACQUIRE.replace(" ADD ", ", #expiresAt = :expiresAt ADD ");
        }
        UpdateItemRequest update = UpdateItemRequest.builder()
                .tableName(tableName)
                .key(key(request.name()))
                .updateExpression(acquire)
                .conditionExpression(condition)
                .expressionAttributeNames(names(acquire + condition))
                .expressionAttributeValues(values)
                .returnValues(ReturnValue.UPDATED_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .overrideConfiguration(override(deadline))
                .build();
        try {
            UpdateItemResponse response = call(() -> client.updateItem(update), "acquire", request.name(), deadline);
            long fence = Long.parseLong(response.attributes().get(FENCE).n());
            return new AcquireResult.Acquired(new HeldLock(
                    request.name(),
                    request.owner(),
                    fence,
                    request.now(),
                    request.lockUntilAt(request.now()),
                    new LockedAt(lockedAt.s())));
        } catch (ConditionalCheckFailedException lost) {
            return new AcquireResult.Lost(
                    lost.hasItem() && !lost.item().isEmpty()
                            ? Optional.of(toRecord(request.name(), lost.item()))
                            : Optional.empty());
        }
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":lockUntil", time(request.lockUntilAt(request.now())));
        String update = "SET #lockUntil = :lockUntil";
        if (request.completedTick() != null) {
            values.put(":tick", time(request.completedTick()));
            update += ", #lastTick = :tick";
        }
        return conditionalUpdate(
                lock.name(), update, ours(lock, values), values, "release", timeouts.forRelease(request));
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        Instant lockUntil = request.lockUntilAt(request.now());
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":lockUntil", time(lockUntil));
        values.put(":now", time(request.now()));
        boolean extended = conditionalUpdate(
                lock.name(),
                "SET #lockUntil = :lockUntil",
                ours(lock, values) + " AND #lockUntil > :now",
                values,
                "extend",
                timeouts.forExtend(request));
        return extended
                ? Optional.of(new HeldLock(
                        lock.name(), lock.owner(), lock.fence(), request.now(), lockUntil, lock.storeState()))
                : Optional.empty();
    }

    /**
     * The condition that the item still holds {@code lock}'s holding, with its values put into {@code values}: the
     * owner token, and the {@code lockedAt} the acquisition wrote. Every acquisition rewrites {@code lockedAt},
     * ShedLock's own DynamoDB provider's included, which leaves {@code owner} as it was; so a holding taken over by
     * ShedLock after this one's lease ran out is never released or extended here (the {@code lockedAt} a later
     * acquisition writes is after this lease's end, so it differs). A {@link HeldLock} made elsewhere, without this
     * store's state, is checked by its owner token only.
     */
    private static String ours(HeldLock lock, Map<String, AttributeValue> values) {
        values.put(":owner", text(lock.owner()));
        if (lock.storeState() instanceof LockedAt lockedAt) {
            values.put(":lockedAt", text(lockedAt.value()));
            return "#owner = :owner AND #lockedAt = :lockedAt";
        }
        return "#owner = :owner";
    }

    /**
     * The {@code lockedAt} of a holding exactly as the item stores it: the string release and extend compare.
     *
     * @param value the attribute's string
     */
    record LockedAt(String value) implements StoreState {}

    @Override
    public Optional<LockRecord> read(String name) {
        return read(name, timeouts.forRead());
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return read(name, timeouts.forSettling(leaseLeft));
    }

    private Optional<LockRecord> read(String name, CallTimeouts deadline) {
        GetItemResponse response = call(
                () -> client.getItem(b -> b.tableName(tableName)
                        .key(key(name))
                        .consistentRead(true)
                        .overrideConfiguration(override(deadline))),
                "read",
                name,
                deadline);
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(toRecord(name, response.item()))
                : Optional.empty();
    }

    /**
     * A strongly consistent {@code Scan} of the table, {@code pageSize} items at most; the page token encodes the last
     * item's key, and a token this store did not make is refused ({@link IllegalArgumentException}). Items whose
     * partition key is not a string are no lock records and are skipped. In the sort-key layout the scan is filtered
     * to the lock items ({@code <sort key> = <value>}; DynamoDB applies the filter after the limit, so a page may hold
     * fewer items than asked, even none, and still have a next page), and the last item scanned may be an
     * application's item.
     */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        CallTimeouts deadline = timeouts.forRead();
        ScanResponse response = call(
                () -> client.scan(b -> {
                    b.tableName(tableName)
                            .consistentRead(true)
                            .limit(pageSize)
                            .exclusiveStartKey(pageToken == null ? null : startKey(pageToken))
                            .overrideConfiguration(override(deadline));
                    if (sortKey != null) {
                        b.filterExpression("#sk = :sk")
                                .expressionAttributeNames(Map.of("#sk", sortKey.name()))
                                .expressionAttributeValues(Map.of(":sk", text(sortKey.value())));
                    }
                }),
                "list",
                "",
                deadline);
        List<LockRecord> records = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        for (Map<String, AttributeValue> item : response.items()) {
            AttributeValue key = item.get(partitionKey);
            if (key == null || key.s() == null) {
                continue; // an item of the application's own beside the locks (a shared table)
            }
            try {
                records.add(toRecord(key.s(), item));
            } catch (NotALockRecordException notOurs) {
                skipped.add(new LockRecordPage.Skipped(key.s(), notOurs.getMessage()));
            }
        }
        return new LockRecordPage(
                records, skipped, response.hasLastEvaluatedKey() ? pageToken(response.lastEvaluatedKey()) : null);
    }

    /**
     * The page token of a scan's last evaluated key: {@value #PAGE_TOKEN_MARK} and, in URL-safe Base64, the sort key
     * value's length, a colon, the sort key value (both empty without a sort key) and the partition key value; so a
     * token this store did not make is refused, never read as a lock name to start at.
     */
    private @Nullable String pageToken(Map<String, AttributeValue> lastEvaluated) {
        AttributeValue hash = lastEvaluated.get(partitionKey);
        if (hash == null || hash.s() == null) {
            return null;
        }
        String rangeValue = "";
        if (sortKey != null) {
            AttributeValue range = lastEvaluated.get(sortKey.name());
            rangeValue = range == null || range.s() == null ? "" : range.s();
        }
        String key = rangeValue.length() + ":" + rangeValue + hash.s();
        return PAGE_TOKEN_MARK
                + Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The exclusive start key of a page token made by {@link #pageToken}. */
    private Map<String, AttributeValue> startKey(String pageToken) {
        String key = null;
        if (pageToken.startsWith(PAGE_TOKEN_MARK)) {
            try {
                key = new String(
                        Base64.getUrlDecoder().decode(pageToken.substring(PAGE_TOKEN_MARK.length())),
                        StandardCharsets.UTF_8);
            } catch (IllegalArgumentException notBase64) {
                key = null;
            }
        }
        int colon = key == null ? -1 : key.indexOf(':');
        int length;
        try {
            length = colon < 0 ? -1 : Integer.parseInt(key.substring(0, colon));
        } catch (NumberFormatException e) {
            length = -1;
        }
        if (length < 0 || colon + 1 + length > key.length() || (sortKey == null) != (length == 0)) {
            throw new IllegalArgumentException("'" + pageToken + "' is no page token of this table's listing: pass"
                    + " the nextPageToken of the page before, or none for the first page");
        }
        String hash = key.substring(colon + 1 + length);
        return sortKey == null
                ? key(hash)
                : Map.of(partitionKey, text(hash), sortKey.name(), text(key.substring(colon + 1, colon + 1 + length)));
    }

    /**
     * Creates the table (on-demand billing, a string partition key, and the string sort key when one is configured)
     * unless it exists, and waits until it is active; an existing table must have that key schema. Then turns the
     * table's TTL on for {@value LockFields#EXPIRES_AT}, which only occurrence records carry, or says in the result
     * what to run when it cannot.
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts.forRead();
        boolean created = false;
        TableDescription table;
        try {
            table = call(
                            () -> client.describeTable(
                                    b -> b.tableName(tableName).overrideConfiguration(override(deadline))),
                            "setup",
                            "",
                            deadline)
                    .table();
        } catch (LockStoreConfigurationException missing) {
            if (!(missing.getCause() instanceof DynamoDbException cause
                    && (cause instanceof ResourceNotFoundException
                            || "ResourceNotFoundException".equals(errorCode(cause))))) {
                throw missing;
            }
            try {
                call(
                        () -> client.createTable(b -> b.tableName(tableName)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(keyAttributes())
                                .keySchema(keySchema())
                                .overrideConfiguration(override(deadline))),
                        "setup",
                        "",
                        deadline);
                created = true;
            } catch (LockStoreException raced) {
                if (!(raced.getCause() instanceof ResourceInUseException)) {
                    throw raced;
                }
            }
            table = null;
        }
        if (table == null || table.tableStatus() != TableStatus.ACTIVE) {
            table = waitUntilActive();
        }
        keySchemaProblem(table.keySchema()).ifPresent(problem -> {
            throw new LockStoreConfigurationException(
                    problem + "Use another table, or create this one with the lock" + " layout.");
        });
        return new StoreSetup(
                created,
                (created ? "Created table '" : "Table '") + tableName + "' " + (created ? "" : "exists, ")
                        + "keyed by the string partition key '" + partitionKey + "'"
                        + (sortKey == null
                                ? ""
                                : " and the string sort key '" + sortKey.name() + "' (lock items: '" + sortKey.value()
                                        + "')")
                        + "; " + enableTimeToLive(deadline));
    }

    /**
     * Turns on the table's TTL on {@value LockFields#EXPIRES_AT}, the attribute only occurrence records carry, unless
     * it is on; what it found or did, or what to run when it could not (a missing permission, a backend without the
     * call): locking works either way, only the occurrence records are then kept.
     */
    private String enableTimeToLive(CallTimeouts deadline) {
        String command = "aws dynamodb update-time-to-live --table-name " + tableName
                + " --time-to-live-specification Enabled=true,AttributeName=" + LockFields.EXPIRES_AT;
        try {
            TimeToLiveDescription ttl = call(
                            () -> client.describeTimeToLive(
                                    b -> b.tableName(tableName).overrideConfiguration(override(deadline))),
                            "setup",
                            "",
                            deadline)
                    .timeToLiveDescription();
            TimeToLiveStatus status = ttl == null ? null : ttl.timeToLiveStatus();
            if (status == TimeToLiveStatus.ENABLED || status == TimeToLiveStatus.ENABLING) {
                return LockFields.EXPIRES_AT.equals(ttl.attributeName())
                        ? "TTL is on for the occurrence records' attribute '" + LockFields.EXPIRES_AT + "'"
                        : "TTL is on for the attribute '" + ttl.attributeName() + "', not '" + LockFields.EXPIRES_AT
                                + "': occurrence records are kept (a table has one TTL attribute)";
            }
            call(
                    () -> client.updateTimeToLive(b -> b.tableName(tableName)
                            .timeToLiveSpecification(t -> t.enabled(true).attributeName(LockFields.EXPIRES_AT))
                            .overrideConfiguration(override(deadline))),
                    "setup",
                    "",
                    deadline);
            return "turned TTL on for the occurrence records' attribute '" + LockFields.EXPIRES_AT + "'";
        } catch (LockStoreException cannot) {
            return "could not turn TTL on (" + cannot.getMessage() + "), so occurrence records are kept: run `"
                    + command + "` (needs dynamodb:DescribeTimeToLive and dynamodb:UpdateTimeToLive)";
        }
    }

    /** Waits until the table is active, polling every 250 ms for up to a minute (the SDK's default waits 20 s). */
    private TableDescription waitUntilActive() {
        try (DynamoDbWaiter waiter = DynamoDbWaiter.builder()
                .client(client)
                .overrideConfiguration(o -> o.maxAttempts(240)
                        .backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(Duration.ofMillis(250))))
                .build()) {
            return waiter.waitUntilTableExists(b -> b.tableName(tableName))
                    .matched()
                    .response()
                    .map(DescribeTableResponse::table)
                    .orElseThrow(() -> new LockStoreUnavailableException(
                            "DynamoDB table '" + tableName + "' did not become active within a minute"));
        }
    }

    /** The key attributes of the lock layout: strings. */
    private List<AttributeDefinition> keyAttributes() {
        List<AttributeDefinition> attributes = new ArrayList<>(List.of(stringAttribute(partitionKey)));
        if (sortKey != null) {
            attributes.add(stringAttribute(sortKey.name()));
        }
        return attributes;
    }

    /** The key schema of the lock layout: the partition key, and the sort key when configured. */
    private List<KeySchemaElement> keySchema() {
        List<KeySchemaElement> keys = new ArrayList<>(List.of(KeySchemaElement.builder()
                .attributeName(partitionKey)
                .keyType(KeyType.HASH)
                .build()));
        if (sortKey != null) {
            keys.add(KeySchemaElement.builder()
                    .attributeName(sortKey.name())
                    .keyType(KeyType.RANGE)
                    .build());
        }
        return keys;
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private boolean conditionalUpdate(
            String name,
            String update,
            String condition,
            Map<String, AttributeValue> values,
            String operation,
            CallTimeouts deadline) {
        try {
            call(
                    () -> client.updateItem(b -> b.tableName(tableName)
                            .key(key(name))
                            .updateExpression(update)
                            .conditionExpression(condition)
                            .expressionAttributeNames(names(update + condition))
                            .expressionAttributeValues(values)
                            .overrideConfiguration(override(deadline))),
                    operation,
                    name,
                    deadline);
            return true;
        } catch (ConditionalCheckFailedException notOurs) {
            return false;
        }
    }

    /**
     * The per-request deadline, so it bounds the application's own client too; built once while requests ask for the
     * same deadline (a job's acquisitions share one lease).
     */
    private AwsRequestOverrideConfiguration override(CallTimeouts deadline) {
        Deadline last = lastDeadline;
        if (last != null && last.timeouts().equals(deadline)) {
            return last.override();
        }
        AwsRequestOverrideConfiguration override = AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(deadline.total())
                .apiCallAttemptTimeout(deadline.perAttempt())
                .build();
        lastDeadline = new Deadline(deadline, override);
        return override;
    }

    private record Deadline(CallTimeouts timeouts, AwsRequestOverrideConfiguration override) {}

    /** Runs one DynamoDB call, letting a failed condition through and translating every other failure. */
    private <T extends DynamoDbResponse> T call(
            Supplier<T> request, String operation, String name, CallTimeouts deadline) {
        long sent = clockSkew.nanoTime();
        try {
            T response = request.get();
            observeDate(response.sdkHttpResponse(), sent);
            return response;
        } catch (ConditionalCheckFailedException conditionFailed) {
            observeDate(conditionFailed.awsErrorDetails().sdkHttpResponse(), sent);
            throw conditionFailed;
        } catch (DynamoDbException e) {
            throw translate(e, operation, name);
        } catch (SdkClientException e) {
            if (StoreErrors.isTimeout(e)) {
                throw deadline.timedOut("DynamoDB", operation, name, "DynamoDbLockProvider.builder()", e);
            }
            String what = "DynamoDB " + operation + " of lock '" + name + "' in table '" + tableName + "'";
            throw StoreErrors.ofMissingCredentials(what, e)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "DynamoDB could not be reached for " + operation + " of lock '" + name + "' in table '"
                                    + tableName + "': " + e.getMessage(),
                            e));
        } catch (SdkException e) {
            throw new LockStoreException(
                    "DynamoDB " + operation + " of lock '" + name + "' failed: " + e.getMessage(), e);
        }
    }

    /**
     * The store error for DynamoDB's answer {@code e} to {@code operation} of lock {@code name}. What only DynamoDB
     * says is decided here: a missing table, a key that does not match the table's schema and rejected or
     * insufficient credentials (all HTTP 400 with their own error codes) are a {@link LockStoreConfigurationException};
     * throttling ({@code ProvisionedThroughputExceededException}, {@code ThrottlingException},
     * {@code RequestLimitExceeded}, after the SDK's own retries) is a {@link LockStoreUnavailableException}; the
     * rest goes by HTTP status ({@link StoreErrors#ofHttpStatus}: 5xx is unavailable).
     */
    LockStoreException translate(DynamoDbException e, String operation, String name) {
        String what =
                (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " in table '" + tableName + "'";
        String code = errorCode(e);
        if (e instanceof ResourceNotFoundException || "ResourceNotFoundException".equals(code)) {
            return new LockStoreConfigurationException(
                    "DynamoDB table '" + tableName + "' does not exist (or is not"
                            + " visible with these credentials and region): create it with the lock layout, or"
                            + " correct the table's name. Operation: "
                            + operation
                            + " '" + name + "'",
                    e);
        }
        if ("ValidationException".equals(code)) {
            Optional<String> problem = keySchemaProblem();
            if (problem.isPresent() || isAboutTheKey(e)) {
                return new LockStoreConfigurationException(
                        problem.orElse("DynamoDB table '" + tableName + "' does not match the lock layout: " + layout()
                                        + " (grant dynamodb:DescribeTable for the exact difference). ")
                                + "DynamoDB " + what + " failed: " + e.getMessage(),
                        e);
            }
        }
        if ("AccessDeniedException".equals(code)) {
            return new LockStoreConfigurationException(
                    "DynamoDB denied " + what + ". The credentials need " + PERMISSIONS.getOrDefault(operation, LOCKING)
                            + " on the table. " + e.getMessage(),
                    e);
        }
        if (CREDENTIALS_REJECTED.contains(code)) {
            return new LockStoreConfigurationException(
                    "DynamoDB rejected the credentials for " + what + " (" + code
                            + "): check the client's access key, secret key, session token and region. "
                            + e.getMessage(),
                    e);
        }
        if (e.isThrottlingException()) {
            return new LockStoreUnavailableException(
                    "DynamoDB throttled " + what + " beyond the client's retries ("
                            + code
                            + "): retry later, or give the table more capacity (on-demand billing has no provisioned"
                            + " limit). " + e.getMessage(),
                    e);
        }
        return StoreErrors.ofHttpStatus(e.statusCode(), "DynamoDB " + what + " failed: " + e.getMessage(), e);
    }

    private void observeDate(@Nullable SdkHttpResponse http, long sent) {
        if (http != null) {
            clockSkew.observeHttpDate(http.firstMatchingHeader("Date").orElse(null), sent, clockSkew.nanoTime());
        }
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    private static @Nullable String errorCode(DynamoDbException e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }

    /**
     * DynamoDB's words for a key that does not fit the table: another partition key name or a sort key ("The
     * provided key element does not match the schema"), or another key type ("Type mismatch for key").
     */
    private static boolean isAboutTheKey(DynamoDbException e) {
        String message =
                e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        return message != null
                && (message.contains("key element does not match the schema") || message.contains("mismatch for key"));
    }

    /**
     * Why the table cannot hold lock records, when its key schema is the reason a request was invalid: looked up
     * only after such an error, so the happy path needs no DescribeTable permission or round trip.
     */
    private Optional<String> keySchemaProblem() {
        List<KeySchemaElement> keys;
        try {
            keys = client.describeTable(b -> b.tableName(tableName).overrideConfiguration(override(timeouts)))
                    .table()
                    .keySchema();
        } catch (SdkException describeFailed) {
            return Optional.empty();
        }
        return keySchemaProblem(keys);
    }

    /** Why a table with {@code keys} cannot hold lock records in this store's layout, if it cannot. */
    private Optional<String> keySchemaProblem(List<KeySchemaElement> keys) {
        String prefix = "DynamoDB table '" + tableName + "' does not match the lock layout: ";
        @Nullable String hash = attribute(keys, KeyType.HASH);
        @Nullable String range = attribute(keys, KeyType.RANGE);
        if (!partitionKey.equals(hash)) {
            return Optional.of(prefix + "its partition key is '" + hash + "' but the provider is configured with '"
                    + partitionKey + "': set the partition key to '" + hash + "', or use a table keyed by '"
                    + partitionKey + "'. ");
        }
        if (sortKey == null && range != null) {
            return Optional.of(prefix + "it has a sort key '" + range + "' and the provider is configured without one."
                    + " Set the sort key to '" + range + "' with a value for every lock item, such as LOCK# (lock items"
                    + " then carry it in '" + range + "'), or use a table with a string partition key only. ");
        }
        if (sortKey != null && range == null) {
            return Optional.of(prefix + "it has no sort key but the provider is configured with sort key '"
                    + sortKey.name() + "': configure no sort key, or use a table with that sort key. ");
        }
        if (sortKey != null && !sortKey.name().equals(range)) {
            return Optional.of(prefix + "its sort key is '" + range + "' but the provider is configured with '"
                    + sortKey.name() + "': set the sort key to '" + range + "'. ");
        }
        return Optional.empty();
    }

    private static @Nullable String attribute(List<KeySchemaElement> keys, KeyType type) {
        return keys.stream()
                .filter(k -> k.keyType() == type)
                .map(KeySchemaElement::attributeName)
                .findFirst()
                .orElse(null);
    }

    /** The key schema this store expects, in words. */
    private String layout() {
        return sortKey == null
                ? "a lock table has a string partition key named '" + partitionKey + "' and no sort key"
                : "the provider expects a string partition key named '" + partitionKey + "' and a string sort key"
                        + " named '" + sortKey.name() + "'";
    }

    private LockRecord toRecord(String name, Map<String, AttributeValue> item) {
        long fence;
        try {
            fence = item.containsKey(FENCE) ? Long.parseLong(item.get(FENCE).n()) : 0L;
        } catch (RuntimeException notANumber) {
            throw new NotALockRecordException(
                    "Item '" + name + "' of table '" + tableName + "' has a fence that is no number: is the table"
                            + " shared with another tool?",
                    notANumber);
        }
        AttributeValue lockedAt = item.get(LOCKED_AT);
        return new LockRecord(
                name,
                instant(item.get(LOCK_UNTIL)),
                instant(lockedAt),
                string(item.get(LOCKED_BY)),
                string(item.get(OWNER)),
                fence,
                instant(item.get(WATERMARK)),
                lockedAt == null || lockedAt.s() == null ? null : new LockedAt(lockedAt.s()));
    }

    private Map<String, AttributeValue> key(String name) {
        return sortKey == null
                ? Map.of(partitionKey, text(name))
                : Map.of(partitionKey, text(name), sortKey.name(), text(sortKey.value()));
    }

    /** The placeholders an expression uses (DynamoDB rejects unused ones). */
    private static Map<String, String> names(String expressions) {
        Map<String, String> used = new HashMap<>();
        NAMES.forEach((placeholder, attribute) -> {
            if (expressions.contains(placeholder)) {
                used.put(placeholder, attribute);
            }
        });
        return used;
    }

    /** {@code expiresAt} as DynamoDB's TTL wants it, epoch seconds, rounded up. */
    static long ttlSeconds(Instant expiresAt) {
        return expiresAt.getEpochSecond() + (expiresAt.getNano() > 0 ? 1 : 0);
    }

    private static AttributeValue time(Instant instant) {
        return AttributeValue.fromS(IsoTimestamps.format(instant));
    }

    private static AttributeValue text(String value) {
        return AttributeValue.fromS(value);
    }

    private static @Nullable Instant instant(@Nullable AttributeValue value) {
        return value == null || value.s() == null ? null : IsoTimestamps.parse(value.s());
    }

    private static @Nullable String string(@Nullable AttributeValue value) {
        return value == null ? null : value.s();
    }

    static String requireText(@Nullable String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }

    public String tableName() {
        return tableName;
    }

    public String partitionKey() {
        return partitionKey;
    }

    /** The sort key lock items use; empty for a table with a partition key only. */
    public Optional<SortKey> sortKey() {
        return Optional.ofNullable(sortKey);
    }

    /** The configured deadline of each call (before the lease cap). */
    public CallTimeouts timeouts() {
        return timeouts;
    }
}
