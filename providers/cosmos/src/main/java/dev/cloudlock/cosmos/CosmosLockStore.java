package dev.cloudlock.cosmos;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosEndToEndOperationLatencyPolicyConfigBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.core.CompletedTicks;
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
import dev.cloudlock.spi.StoredNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} on an Azure Cosmos DB (NoSQL API) container: one item per lock, one request per acquire,
 * release and extend.
 *
 * <ul>
 *   <li><b>acquire</b>: a patch with the filter predicate {@code FROM c WHERE c.lockUntil <= '<now>'} (and, for a
 *       tick, {@code lastTick} absent or older) that sets {@code lockUntil}, {@code lockedAt}, {@code lockedBy},
 *       {@code owner} and increments {@code fence}. 412 means the lock is held; 404 means it was never created, and
 *       a {@code createItem} follows (409: another instance created it first).</li>
 *   <li><b>release</b> and <b>extend</b>: a patch with {@code If-Match} on the ETag of the holder's own write, so any
 *       later write (another holder's acquisition) makes it fail with 412; extend also filters on
 *       {@code c.lockUntil > '<now>'}.</li>
 * </ul>
 *
 * <p>Timestamps are fixed-width ISO-8601 UTC strings ({@link IsoTimestamps}, the layout of the other cloudlock
 * stores). Cosmos DB compares strings ordinally in a filter predicate, and fixed-width UTC strings order exactly as
 * the instants do, so {@code c.lockUntil <= '<now>'} is the time comparison, while the item stays readable in Data
 * Explorer. The strings contain no quote, so they are written into the predicate literally (the patch API takes no
 * query parameters).
 *
 * <p>Leases are judged by this machine's clock; the {@code _ts} (server time, whole seconds) of every item we write
 * feeds a {@link ClockSkewMonitor}. Item ids are lock names encoded by {@link CosmosItemIds}; the partition key
 * value is the id, stored at the configured partition key path ({@code /id} by default). Thread-safe.
 *
 * <p>Errors: a missing database or container, a container with another partition key path and credentials that
 * are rejected or lack a role are a {@link LockStoreConfigurationException} (fix the setup); an unreachable
 * endpoint, a timeout, throttling (429, 449) after the SDK's retries and a 5xx are a
 * {@link LockStoreUnavailableException} (retry later).
 */
public final class CosmosLockStore implements LockStore {

    private static final Pattern TOP_LEVEL_PATH = Pattern.compile("/[A-Za-z][A-Za-z0-9_]*");
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;
    private static final int GONE = 410;
    private static final int RETRY_WITH = 449;
    private static final int READ_SESSION_NOT_AVAILABLE = 1002;
    private static final int PARTITION_KEY_MISMATCH = 1001;
    /** The SDK's sub-status of a 408 raised when the end-to-end latency policy cancelled the operation. */
    private static final int CLIENT_OPERATION_TIMEOUT = 20008;

    private final CosmosContainer container;
    private final @Nullable CosmosDatabase database;
    private final String partitionKeyField;
    private final ClockSkewMonitor clockSkew;
    private final CallTimeouts timeouts;

    /**
     * @param container the lock container (its client's endpoint, credentials and consistency are the caller's)
     * @param database the container's database, through which {@link #init()} can create the container when it is
     *     absent; {@code null}: {@link #init()} can check the container, not create it
     * @param partitionKeyPath the container's partition key path: {@code /id}, or a top-level property that holds
     *     nothing else (it is set to the item id)
     * @param clockSkew fed with the {@code _ts} of every item this store writes; warns when Cosmos DB's clock and
     *     ours certainly differ by more than its tolerance
     * @param timeouts the deadline of every request, set on each request as an end-to-end latency policy (so it
     *     bounds any client) and capped at the lease each request protects. Only the total applies: the policy has
     *     no per-attempt value (the SDK's own network timeouts bound each attempt)
     */
    CosmosLockStore(
            CosmosContainer container,
            @Nullable CosmosDatabase database,
            String partitionKeyPath,
            ClockSkewMonitor clockSkew,
            CallTimeouts timeouts) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.container = Objects.requireNonNull(container, "container");
        this.database = database;
        Objects.requireNonNull(partitionKeyPath, "partitionKeyPath");
        if (!TOP_LEVEL_PATH.matcher(partitionKeyPath).matches()) {
            throw new IllegalArgumentException(
                    "partitionKeyPath must be a top-level property path such as /id, was '" + partitionKeyPath + "'");
        }
        this.partitionKeyField = partitionKeyPath.substring(1);
        if (LockFields.ALL.contains(partitionKeyField)) {
            throw new IllegalArgumentException("partitionKeyPath " + partitionKeyPath
                    + " is a field of the lock record; use /id or a property of its own");
        }
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        String id = CosmosItemIds.encode(request.name());
        Instant now = request.now();
        Instant lockUntil = request.lockUntilAt(now);
        String filter = "FROM c WHERE (NOT IS_DEFINED(c." + LOCK_UNTIL + ") OR c." + LOCK_UNTIL + " <= '"
                + IsoTimestamps.format(now) + "')";
        if (request.tick() != null) {
            filter += " AND (NOT IS_DEFINED(c." + WATERMARK + ") OR c." + WATERMARK + " < '"
                    + IsoTimestamps.format(request.tick()) + "')";
        }
        CosmosPatchOperations take = CosmosPatchOperations.create()
                .set("/" + LOCK_UNTIL, IsoTimestamps.format(lockUntil))
                .set("/" + LOCKED_AT, IsoTimestamps.format(now))
                .set("/" + LOCKED_BY, request.lockedBy())
                .set("/" + OWNER, request.owner())
                .increment("/" + FENCE, 1L);
        if (request.expiresAt() != null) {
            take.set("/" + TTL, ttlSeconds(request.expiresAt(), now));
        }
        CallTimeouts deadline = timeouts.forAcquire(request);
        CosmosPatchItemRequestOptions options = new CosmosPatchItemRequestOptions().setFilterPredicate(filter);
        options.setContentResponseOnWriteEnabled(true);
        bound(options, deadline);
        try {
            CosmosItemResponse<ObjectNode> patched = write(
                    () -> container.patchItem(id, new PartitionKey(id), take, options, ObjectNode.class),
                    "acquire",
                    request.name());
            return acquired(request, patched);
        } catch (CosmosException e) {
            if (e.getStatusCode() == PRECONDITION_FAILED) {
                return new AcquireResult.Lost(Optional.empty());
            }
            if (!isMissingItem(e)) {
                throw translate(e, "acquire", request.name(), deadline);
            }
        }
        return create(request, id, lockUntil, deadline);
    }

    /** The first acquisition of a name: the item does not exist yet. */
    private AcquireResult create(AcquireRequest request, String id, Instant lockUntil, CallTimeouts deadline) {
        ObjectNode item = JsonNodeFactory.instance
                .objectNode()
                .put("id", id)
                .put(LOCK_UNTIL, IsoTimestamps.format(lockUntil))
                .put(LOCKED_AT, IsoTimestamps.format(request.now()))
                .put(LOCKED_BY, request.lockedBy())
                .put(OWNER, request.owner())
                .put(FENCE, 1L);
        item.put(partitionKeyField, id);
        if (request.expiresAt() != null) {
            item.put(TTL, ttlSeconds(request.expiresAt(), request.now()));
        }
        CosmosItemRequestOptions options =
                bound(new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(true), deadline);
        try {
            return acquired(
                    request,
                    write(() -> container.createItem(item, new PartitionKey(id), options), "create", request.name()));
        } catch (CosmosException e) {
            if (e.getStatusCode() == CONFLICT) {
                return new AcquireResult.Lost(Optional.empty());
            }
            throw translate(e, "create", request.name(), deadline);
        }
    }

    /**
     * The item property Cosmos DB expires an item by: seconds after the item's last write ({@code _ts}), honoured when
     * the container's default TTL is set (-1: on, items without {@code ttl} never expire). Only occurrence records
     * carry it.
     */
    static final String TTL = "ttl";

    /**
     * An occurrence record's {@code ttl} for a write at {@code now}: the seconds from {@code now}'s whole second to
     * {@code expiresAt} rounded up, at least 1, so that the item, whose {@code _ts} is at or after that second, never
     * expires before {@code expiresAt}. A later write (the release) counts it again from its own {@code _ts}: later,
     * never earlier.
     */
    static int ttlSeconds(Instant expiresAt, Instant now) {
        long up = expiresAt.getEpochSecond() + (expiresAt.getNano() > 0 ? 1 : 0);
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, up - now.getEpochSecond()));
    }

    private static AcquireResult acquired(AcquireRequest request, CosmosItemResponse<ObjectNode> response) {
        long fence = response.getItem().path(FENCE).asLong();
        return new AcquireResult.Acquired(new HeldLock(
                request.name(),
                request.owner(),
                fence,
                request.now(),
                request.lockUntilAt(request.now()),
                new StoreState.ETag(response.getETag())));
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        CosmosPatchOperations release = CosmosPatchOperations.create()
                .set("/" + LOCK_UNTIL, IsoTimestamps.format(request.lockUntilAt(request.now())));
        if (request.completedTick() != null) {
            release.set("/" + WATERMARK, IsoTimestamps.format(request.completedTick()));
        }
        return ifStillOurs(lock, release, null, "release", timeouts.forRelease(request))
                .isPresent();
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        Instant lockUntil = request.lockUntilAt(request.now());
        CosmosPatchOperations extend =
                CosmosPatchOperations.create().set("/" + LOCK_UNTIL, IsoTimestamps.format(lockUntil));
        String filter = "FROM c WHERE c." + LOCK_UNTIL + " > '" + IsoTimestamps.format(request.now()) + "'";
        return ifStillOurs(lock, extend, filter, "extend", timeouts.forExtend(request))
                .map(etag -> new HeldLock(
                        lock.name(), lock.owner(), lock.fence(), request.now(), lockUntil, new StoreState.ETag(etag)));
    }

    /** One patch with If-Match on our write's ETag; the new ETag, or empty when the item is no longer ours. */
    private Optional<String> ifStillOurs(
            HeldLock lock,
            CosmosPatchOperations operations,
            @Nullable String filter,
            String operation,
            CallTimeouts deadline) {
        String id = CosmosItemIds.encode(lock.name());
        CosmosPatchItemRequestOptions options = new CosmosPatchItemRequestOptions().setFilterPredicate(filter);
        if (!(lock.storeState() instanceof StoreState.ETag etag)) {
            throw new IllegalArgumentException("Lock '" + lock.name() + "' carries no Cosmos ETag (" + lock.storeState()
                    + "): it was not acquired through CosmosLockStore");
        }
        options.setIfMatchETag(etag.value());
        options.setContentResponseOnWriteEnabled(true);
        bound(options, deadline);
        try {
            return Optional.of(write(
                            () -> container.patchItem(id, new PartitionKey(id), operations, options, ObjectNode.class),
                            operation,
                            lock.name())
                    .getETag());
        } catch (CosmosException e) {
            if (e.getStatusCode() == PRECONDITION_FAILED || isMissingItem(e)) {
                return Optional.empty();
            }
            throw translate(e, operation, lock.name(), deadline);
        }
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return read(name, timeouts.forRead());
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return read(name, timeouts.forSettling(leaseLeft));
    }

    private Optional<LockRecord> read(String name, CallTimeouts deadline) {
        String id = CosmosItemIds.encode(name);
        CosmosItemRequestOptions options = bound(new CosmosItemRequestOptions(), deadline);
        try {
            CosmosItemResponse<ObjectNode> response =
                    timed(() -> container.readItem(id, new PartitionKey(id), options, ObjectNode.class), "read", name);
            return Optional.of(toRecord(name, response.getItem(), response.getETag()));
        } catch (CosmosException e) {
            if (isMissingItem(e)) {
                return Optional.empty();
            }
            throw translate(e, "read", name, deadline);
        }
    }

    /**
     * A query of the container's items, {@code pageSize} at most; the page token is Cosmos DB's continuation token.
     * Items whose id is no encoded lock name are not lock records and are skipped (and logged).
     */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        return page(new SqlQuerySpec("SELECT * FROM c"), pageToken, pageSize);
    }

    /**
     * One job's occurrence records only: a query of the items whose id starts with {@code <encoded job>@}
     * ({@code STARTSWITH}, served by the index on {@code id}), one per page. It may hold another job's records whose
     * name starts with the same text ({@code a@b}'s for {@code a}); core drops them.
     */
    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        return page(
                new SqlQuerySpec(
                        "SELECT * FROM c WHERE STARTSWITH(c.id, @start)",
                        new SqlParameter("@start", CosmosItemIds.encode(CompletedTicks.occurrenceRecordPrefix(job)))),
                pageToken,
                pageSize);
    }

    /** True: one job's occurrence records are a query by the start of their ids. */
    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return true;
    }

    private LockRecordPage page(SqlQuerySpec query, @Nullable String pageToken, int pageSize) {
        CallTimeouts deadline = timeouts.forRead();
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        options.setCosmosEndToEndOperationLatencyPolicyConfig(
                new CosmosEndToEndOperationLatencyPolicyConfigBuilder(deadline.total())
                        .enable(true)
                        .build());
        FeedResponse<ObjectNode> page;
        long sent = clockSkew.nanoTime();
        try {
            page = container
                    .queryItems(query, options, ObjectNode.class)
                    .iterableByPage(pageToken, pageSize)
                    .iterator()
                    .next();
        } catch (CosmosException e) {
            observeDate(e.getResponseHeaders(), sent);
            throw translate(e, "list", "", deadline);
        } catch (RuntimeException e) {
            throw clientFailure(e, "list", "");
        }
        observeDate(page.getResponseHeaders(), sent);
        List<LockRecord> records = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        for (ObjectNode item : page.getResults()) {
            String id = item.path("id").asText("");
            Optional<String> name = StoredNames.decode(id, CosmosItemIds::encode);
            if (name.isEmpty()) {
                skipped.add(new LockRecordPage.Skipped(id, "its id is no encoded lock name"));
                continue;
            }
            try {
                records.add(toRecord(name.get(), item, item.path("_etag").asText(null)));
            } catch (NotALockRecordException notOurs) {
                skipped.add(new LockRecordPage.Skipped(id, notOurs.getMessage()));
            }
        }
        return new LockRecordPage(records, skipped, page.getContinuationToken());
    }

    /**
     * Creates the container with the partition key path unless it exists (when the store was given its database),
     * else checks that it exists; in both cases an existing container must have that partition key path.
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts.forRead();
        try {
            if (database != null) {
                CosmosContainerProperties layout =
                        new CosmosContainerProperties(container.getId(), "/" + partitionKeyField);
                layout.setDefaultTimeToLiveInSeconds(-1); // on, for the items that carry a ttl: occurrence records
                int status;
                try {
                    status = database.createContainerIfNotExists(layout).getStatusCode();
                } catch (CosmosException e) {
                    if (e.getStatusCode() == NOT_FOUND && !databaseExists(database)) {
                        throw missingDatabase(database.getId(), e);
                    }
                    throw e;
                }
                checkPartitionKeyPath();
                boolean created = status == 201;
                return new StoreSetup(
                        created,
                        (created ? "Created container '" : "Container '") + container.getId() + "' of database '"
                                + database.getId() + "'" + (created ? "" : " exists") + ", partitioned by /"
                                + partitionKeyField + "; " + timeToLive());
            }
            checkPartitionKeyPath();
            return new StoreSetup(
                    false,
                    "Container '" + container.getId() + "' exists, partitioned by /" + partitionKeyField + "; "
                            + timeToLive());
        } catch (CosmosException e) {
            throw translate(e, "setup", "", deadline);
        }
    }

    /**
     * What the container's default TTL means for occurrence records: -1 (set when this store creates the container)
     * makes Cosmos DB honour their {@value #TTL} while every other item (a job's record) never expires. An existing
     * container is left as it is (replacing its properties is an operator's decision, and a role on its data cannot):
     * the result says what to run. Locking works either way; without a default TTL only the occurrence records are
     * kept.
     */
    private String timeToLive() {
        Integer defaultTtl;
        try {
            defaultTtl = container.read().getProperties().getDefaultTimeToLiveInSeconds();
        } catch (CosmosException cannot) {
            return "its default TTL could not be read (" + cannot.getStatusCode() + ")";
        }
        if (defaultTtl == null) {
            return "its default TTL is unset, so occurrence records are kept: run `az cosmosdb sql container update"
                    + " --name " + container.getId() + " --ttl -1 --database-name <database> --account-name <account>"
                    + " --resource-group <group>` (or the azure-cosmos-lock module's default_ttl = -1)";
        }
        return defaultTtl == -1
                ? "its default TTL is -1: occurrence records expire by their ttl, no other item does"
                : "its default TTL is " + defaultTtl + " s, so every item expires, job records included, and a job's"
                        + " fencing token resets with its record: set it to -1";
    }

    private static LockStoreConfigurationException missingDatabase(String database, CosmosException e) {
        String message = "Cosmos DB database '" + database + "' does not exist: init creates the lock container, not"
                + " its database (an account's databases are its owner's to create). Create it with `az cosmosdb sql"
                + " database create --name " + database + " --account-name <account> --resource-group <group>` (or"
                + " the azure-cosmos-lock module), then run init again";
        return new LockStoreConfigurationException(message, e);
    }

    private static boolean databaseExists(CosmosDatabase database) {
        try {
            database.read();
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** The container is partitioned by this store's partition key path (one read of the container's properties). */
    @Override
    public void checkLayout() {
        CallTimeouts deadline = timeouts.forRead();
        try {
            checkPartitionKeyPath();
        } catch (CosmosException e) {
            throw translate(e, "layout check", "", deadline);
        }
    }

    private void checkPartitionKeyPath() {
        List<String> paths =
                container.read().getProperties().getPartitionKeyDefinition().getPaths();
        if (!paths.equals(List.of("/" + partitionKeyField))) {
            throw new LockStoreConfigurationException("Cosmos DB container '" + container.getId()
                    + "' is partitioned by " + paths + ", not /" + partitionKeyField + ": set the partition key path"
                    + " to " + (paths.isEmpty() ? "/id" : paths.get(0)) + ", or use a container partitioned by /"
                    + partitionKeyField);
        }
    }

    /**
     * Sets {@code deadline}'s total as the request's end-to-end latency policy: the SDK cancels the operation (a 408
     * with sub-status 20008) when it has not completed in time, whatever the client's own settings, a TLS handshake
     * that never completes included.
     */
    private static <T extends CosmosItemRequestOptions> T bound(T options, CallTimeouts deadline) {
        options.setCosmosEndToEndOperationLatencyPolicyConfig(
                new CosmosEndToEndOperationLatencyPolicyConfigBuilder(deadline.total())
                        .enable(true)
                        .build());
        return options;
    }

    /** Cosmos DB's rule: the item id of the name fits its 1,023-byte limit ({@link CosmosItemIds}). */
    @Override
    public void checkName(String name) {
        CosmosItemIds.checkLength(name);
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /**
     * Runs one request and feeds the {@code Date} header of its answer (a success or an error) to the store's clock.
     * Gateway mode carries it on every response; where a response has none, the {@code _ts} of written items still
     * feeds the clock.
     */
    private CosmosItemResponse<ObjectNode> timed(
            Supplier<CosmosItemResponse<ObjectNode>> call, String operation, String name) {
        long sent = clockSkew.nanoTime();
        try {
            CosmosItemResponse<ObjectNode> response = call.get();
            observeDate(response.getResponseHeaders(), sent);
            return response;
        } catch (CosmosException e) {
            observeDate(e.getResponseHeaders(), sent);
            throw e;
        } catch (RuntimeException e) {
            throw clientFailure(e, operation, name);
        }
    }

    /**
     * A failure of the SDK's client that is no answer of Cosmos DB's ({@code CosmosException}): never let out as it
     * is. With endpoint discovery on and the endpoint given as an IP address (an emulator), a client that lost the
     * account fails over by building a regional URI from it and throws {@code invalid location}: a setup error that
     * the client's {@code endpointDiscoveryEnabled(false)} fixes. Anything else goes by {@link StoreErrors#ofNoAnswer}.
     */
    private LockStoreException clientFailure(RuntimeException e, String operation, String name) {
        String what = (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " in container '"
                + container.getId() + "'";
        if (String.valueOf(e.getMessage()).startsWith("invalid location")) {
            return new LockStoreConfigurationException(
                    "Cosmos DB's client failed over for " + what + " and could"
                            + " not: " + e.getMessage()
                            + ". Its endpoint discovery cannot build a regional endpoint from an"
                            + " endpoint given as an IP address, as an emulator's is; build the client with"
                            + " endpointDiscoveryEnabled(false) (the cosmos store does so for its own client)",
                    e);
        }
        return StoreErrors.ofNoAnswer("Cosmos DB's client failed for " + what + " without an answer: " + e, e);
    }

    private void observeDate(@Nullable Map<String, String> headers, long sent) {
        long received = clockSkew.nanoTime();
        if (headers != null) {
            headers.entrySet().stream()
                    .filter(header -> header.getKey().equalsIgnoreCase("Date"))
                    .findFirst()
                    .ifPresent(header -> clockSkew.observeHttpDate(header.getValue(), sent, received));
        }
    }

    /**
     * Runs one write and feeds the {@code Date} of its answer and the {@code _ts} of the item it wrote to the clock.
     */
    private CosmosItemResponse<ObjectNode> write(
            Supplier<CosmosItemResponse<ObjectNode>> call, String operation, String name) {
        long sent = clockSkew.nanoTime();
        CosmosItemResponse<ObjectNode> response = timed(call, operation, name);
        long received = clockSkew.nanoTime();
        ObjectNode item = response.getItem();
        if (item == null) {
            throw new LockStoreException("Cosmos DB returned no item for " + operation + " of lock '" + name
                    + "' although the request asked for it (contentResponseOnWriteEnabled)");
        }
        JsonNode ts = item.get("_ts");
        if (ts != null && ts.canConvertToLong()) {
            clockSkew.observe(Instant.ofEpochSecond(ts.asLong()), Duration.ofSeconds(1), sent, received);
        }
        return response;
    }

    /** A 404 about the item itself; a missing database or container carries a sub-status (1003) and is an error. */
    private static boolean isMissingItem(CosmosException e) {
        return e.getStatusCode() == NOT_FOUND && e.getSubStatusCode() == 0;
    }

    /**
     * The store error for Cosmos DB's answer {@code e} (the item-level outcomes, 404 without sub-status, 409 and
     * 412, are results and never get here). What only Cosmos DB says is decided here: a 404 about the database or
     * container (sub-status 1003) and a 400 about the partition key are a {@link LockStoreConfigurationException};
     * 449 retry-with, 410 gone and 404/1002 (read session not available), all transient and retried by the SDK
     * first, are a {@link LockStoreUnavailableException}. Every other status goes by {@link StoreErrors#ofHttpStatus}:
     * 401 and 403 are configuration errors; 408, 429 and 5xx (the SDK answers 503 when it cannot connect) are
     * unavailable.
     */
    LockStoreException translate(CosmosException e, String operation, String name, CallTimeouts deadline) {
        if (e.getStatusCode() == 408 && e.getSubStatusCode() == CLIENT_OPERATION_TIMEOUT) {
            return deadline.timedOut("Cosmos DB", operation, name, "CosmosLockProvider.builder()", e);
        }
        String message = problem(e) + " (" + (name.isEmpty() ? operation : operation + " of lock '" + name + "'")
                + " in container '" + container.getId() + "'): " + e.getShortMessage();
        int status = e.getStatusCode();
        boolean sessionNotAvailable = status == NOT_FOUND && e.getSubStatusCode() == READ_SESSION_NOT_AVAILABLE;
        if ((status == NOT_FOUND && !sessionNotAvailable) || isAboutThePartitionKey(e)) {
            return new LockStoreConfigurationException(message, e);
        }
        if (status == RETRY_WITH || status == GONE || sessionNotAvailable) {
            return new LockStoreUnavailableException(message, e);
        }
        return StoreErrors.ofHttpStatus(status, message, e);
    }

    private String problem(CosmosException e) {
        return switch (e.getStatusCode()) {
            case 401 -> "Cosmos DB rejected the credentials: check the account key or the Entra ID token credential";
            case 403 ->
                "Cosmos DB denied the request: the identity needs the data-plane role 'Cosmos DB Built-in Data"
                        + " Contributor' (or a custom role with readMetadata and items read, create and replace) on"
                        + " this container";
            case NOT_FOUND ->
                e.getSubStatusCode() == READ_SESSION_NOT_AVAILABLE
                        ? "Cosmos DB could not yet serve this session's writes from the replica it reached (404/1002)"
                        : "The Cosmos DB database or container does not exist: create the container (partition key "
                                + "/" + partitionKeyField + ") or fix the names given to the client";
            case 400 ->
                "Cosmos DB rejected the request as invalid; if the message is about the partition key, the"
                        + " container's partition key path is not /" + partitionKeyField + ": set the partition key"
                        + " path to the container's";
            case 429 ->
                "Cosmos DB throttled the request (429) beyond the client's retries: raise the container's"
                        + " throughput";
            case RETRY_WITH ->
                "Cosmos DB asked to retry a write that conflicted with a concurrent one (449), beyond"
                        + " the client's retries";
            case 408, 503, 0 -> "Cosmos DB could not be reached or did not answer in time";
            default -> "Cosmos DB failed with status " + e.getStatusCode();
        };
    }

    /** Sub-status 1001 (PartitionKeyMismatch), or a 400 whose message names the partition key. */
    private static boolean isAboutThePartitionKey(CosmosException e) {
        if (e.getStatusCode() != 400) {
            return false;
        }
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return e.getSubStatusCode() == PARTITION_KEY_MISMATCH
                || message.contains("partitionkey")
                || message.contains("partition key");
    }

    private static LockRecord toRecord(String name, ObjectNode item, @Nullable String etag) {
        return new LockRecord(
                name,
                instant(item, LOCK_UNTIL),
                instant(item, LOCKED_AT),
                text(item, LOCKED_BY),
                text(item, OWNER),
                item.path(FENCE).asLong(0),
                instant(item, WATERMARK),
                etag == null ? null : new StoreState.ETag(etag));
    }

    private static @Nullable Instant instant(ObjectNode item, String field) {
        JsonNode value = item.get(field);
        return value == null || !value.isTextual() ? null : IsoTimestamps.parse(value.asText());
    }

    private static @Nullable String text(ObjectNode item, String field) {
        JsonNode value = item.get(field);
        return value == null || !value.isTextual() ? null : value.asText();
    }

    /** The container's partition key path this store writes. */
    public String partitionKeyPath() {
        return "/" + partitionKeyField;
    }
}
