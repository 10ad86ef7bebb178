package dev.cloudlock.datastore;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.datastore.spi.v1.DatastoreRpc;
import com.google.datastore.v1.CommitRequest;
import com.google.datastore.v1.CommitResponse;
import com.google.datastore.v1.CompositeFilter;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.EntityResult;
import com.google.datastore.v1.Filter;
import com.google.datastore.v1.Key;
import com.google.datastore.v1.KindExpression;
import com.google.datastore.v1.LookupRequest;
import com.google.datastore.v1.LookupResponse;
import com.google.datastore.v1.Mutation;
import com.google.datastore.v1.MutationResult;
import com.google.datastore.v1.PartitionId;
import com.google.datastore.v1.Projection;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.PropertyOrder;
import com.google.datastore.v1.PropertyReference;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.RunQueryRequest;
import com.google.datastore.v1.RunQueryResponse;
import com.google.datastore.v1.Value;
import com.google.protobuf.Int32Value;
import com.google.protobuf.Timestamp;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ETagLockStore;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.NotALockRecordException;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.spi.StoreErrors;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.spi.StoreState;
import dev.cloudlock.spi.StoredNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link dev.cloudlock.spi.LockStore} on Datastore (Firestore in Datastore mode): one entity per lock, a job's
 * record in the kind the provider names and an occurrence record in that kind followed by {@value #OCCURRENCES},
 * keyed by the lock name percent-encoded ({@link #encodeName}); its state in properties named as in every store
 * ({@code lockUntil}, {@code lockedAt}, {@code lastTick}: timestamps; {@code lockedBy}, {@code owner}: strings;
 * {@code fence}: integer), none of them indexed (only keys are queried).
 *
 * <p>Acquire, release and extend are each one non-transactional commit of one mutation: an {@code insert} when the
 * entity must be absent ({@code ALREADY_EXISTS} means another writer won), or an {@code update} with the entity's
 * version as its {@code base_version} ({@code conflict_detected} means someone wrote since, and nothing was applied).
 * Datastore gives every write a new version, so the version is the entity tag of {@link ETagLockStore}: one commit per
 * steady-state acquire, release and extend; a lookup first after another holder.
 *
 * <p>Conditions compare core's clock with {@code lockUntil}: the {@code read_time} of every lookup and the
 * {@code commit_time} of every commit that carry one feed a {@link ClockSkewMonitor}, so core judges leases by
 * Datastore's clock. A backend whose answers carry no time (the Datastore emulator) leaves core on the client's
 * clock.
 *
 * <p>Errors: a lost race is a normal result. A missing database, a database in Firestore Native mode, refused
 * credentials, a denied role and an invalid request are a {@link LockStoreConfigurationException} (fix the setup); an
 * unreachable endpoint, a deadline exceeded, an exhausted quota, contention and an internal error are a
 * {@link LockStoreUnavailableException} (retry later).
 *
 * <p><b>Deadlines.</b> Each call runs on a worker thread and is waited for until its total deadline, so it bounds a
 * client the application built too; the per-attempt deadline does not apply (the client's own transport settings
 * bound each attempt). Thread-safe.
 */
public final class DatastoreLockStore extends ETagLockStore {

    /** What follows the kind of the jobs' records in the kind of the occurrence records. */
    static final String OCCURRENCES = "_occurrences";

    /** Datastore's limit on a key name, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 1500;

    /** Runs the calls, so that a caller waits no longer than its deadline ({@link #within}). */
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "cloudlock-datastore-call");
        thread.setDaemon(true);
        return thread;
    });

    private final DatastoreRpc rpc;
    private final DatastoreOptions options;
    private final String kind;
    private final ClockSkewMonitor clockSkew;

    /**
     * @param options the options of the application's Datastore client: its project, database, namespace, transport
     *     and credentials
     * @param kind the kind of the jobs' records; occurrence records use it followed by {@value #OCCURRENCES}
     * @param clockSkew fed with the read time of every lookup that carries one
     * @param timeouts the deadline of every call, capped at the lease it protects
     */
    DatastoreLockStore(DatastoreOptions options, String kind, ClockSkewMonitor clockSkew, CallTimeouts timeouts) {
        super(timeouts);
        this.options = Objects.requireNonNull(options, "options");
        this.rpc = (DatastoreRpc) options.getRpc();
        this.kind = checkKind(kind);
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    /** A kind name: not blank, not reserved ({@code __...__}), and short enough to leave room for its suffix. */
    static String checkKind(@Nullable String kind) {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("kind must not be blank");
        }
        if (kind.startsWith("__") && kind.endsWith("__")) {
            throw new IllegalArgumentException("kind '" + kind + "' is reserved by Datastore (it starts and ends with"
                    + " '__'): choose another, such as shedlock");
        }
        if ((kind + OCCURRENCES).getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "kind must be at most " + (MAX_KEY_BYTES - OCCURRENCES.length()) + " bytes of UTF-8");
        }
        return kind;
    }

    /** A lookup of the entity: one {@code Lookup}. */
    @Override
    protected Optional<LockRecord> readObject(String name, CallTimeouts deadline) {
        Key key = key(name);
        LookupRequest request = LookupRequest.newBuilder()
                .setProjectId(options.getProjectId())
                .setDatabaseId(options.getDatabaseId())
                .addKeys(key)
                .build();
        long sent = clockSkew.nanoTime();
        LookupResponse response = within(deadline, "read", name, () -> rpc.lookup(request));
        if (response.hasReadTime()) {
            clockSkew.observe(instant(response.getReadTime()), Duration.ofNanos(1_000), sent, clockSkew.nanoTime());
        }
        if (response.getFoundCount() == 0) {
            if (response.getMissingCount() == 0) {
                throw new LockStoreUnavailableException("Datastore answered the lookup of lock '" + name + "' (key "
                        + describe(key) + ") with neither the entity nor its absence (deferred); retry later");
            }
            return Optional.empty();
        }
        EntityResult found = response.getFound(0);
        try {
            return Optional.of(record(name, found.getEntity(), found.getVersion()));
        } catch (IllegalArgumentException notOurs) {
            throw new NotALockRecordException(
                    "Entity " + describe(key) + " (lock '" + name + "') is not a cloudlock lock record: "
                            + notOurs.getMessage() + ". Another tool writes to the kind? Give cloudlock a kind of its"
                            + " own.",
                    notOurs);
        }
    }

    /** One commit of one mutation: an insert, or an update on condition of the version {@code ifMatch}. */
    @Override
    protected Optional<String> writeObject(
            LockRecord next, @Nullable String ifMatch, String operation, CallTimeouts deadline) {
        Entity entity = entity(next);
        Mutation mutation = ifMatch == null
                ? Mutation.newBuilder().setInsert(entity).build()
                : Mutation.newBuilder()
                        .setUpdate(entity)
                        .setBaseVersion(version(ifMatch))
                        .build();
        CommitRequest request = CommitRequest.newBuilder()
                .setProjectId(options.getProjectId())
                .setDatabaseId(options.getDatabaseId())
                .setMode(CommitRequest.Mode.NON_TRANSACTIONAL)
                .addMutations(mutation)
                .build();
        CommitResponse response;
        long sent = clockSkew.nanoTime();
        try {
            response = within(deadline, operation, next.name(), () -> rpc.commit(request));
        } catch (LostRace lost) {
            return Optional.empty();
        }
        if (response.hasCommitTime()) {
            clockSkew.observe(instant(response.getCommitTime()), Duration.ofNanos(1_000), sent, clockSkew.nanoTime());
        }
        MutationResult result = response.getMutationResults(0);
        if (result.getConflictDetected()) {
            return Optional.empty();
        }
        return Optional.of(Long.toString(result.getVersion()));
    }

    /**
     * One page of a keys-only query of the jobs' kind or the occurrence records' (all of them, or one job's: the keys
     * from {@code <encoded job>%40}), in key order; the page token is the last key of the page. {@link ETagLockStore}
     * then reads each entity: 1 + n requests for a page of n.
     */
    @Override
    protected KeyPage listKeysUnder(String relative, @Nullable String pageToken, int pageSize, CallTimeouts deadline) {
        boolean occurrences = relative.startsWith(ObjectKeys.OCCURRENCE_PREFIX);
        String kindListed = occurrences ? kind + OCCURRENCES : kind;
        String from = occurrences ? relative.substring(ObjectKeys.OCCURRENCE_PREFIX.length()) : relative;
        List<Filter> filters = new ArrayList<>();
        if (!from.isEmpty()) {
            // encoded names are ASCII letters, digits, '-', '_', '.' and '%': every key name starting with 'from'
            // sorts before 'from' followed by '{', which comes after them all
            filters.add(keyFilter(PropertyFilter.Operator.GREATER_THAN_OR_EQUAL, kindListed, from));
            filters.add(keyFilter(PropertyFilter.Operator.LESS_THAN, kindListed, from + "{"));
        }
        if (pageToken != null) {
            if (StoredNames.decode(pageToken, this::encodeName).isEmpty()) {
                throw new IllegalArgumentException(
                        "'" + ObjectKeys.abbreviate(pageToken) + "' is not a page token of this store: pass the"
                                + " nextPageToken of the page before, or none for the first page");
            }
            filters.add(keyFilter(PropertyFilter.Operator.GREATER_THAN, kindListed, pageToken));
        }
        Query.Builder query = Query.newBuilder()
                .addKind(KindExpression.newBuilder().setName(kindListed))
                .addProjection(Projection.newBuilder().setProperty(keyProperty()))
                .addOrder(PropertyOrder.newBuilder()
                        .setProperty(keyProperty())
                        .setDirection(PropertyOrder.Direction.ASCENDING))
                .setLimit(Int32Value.of(pageSize + 1));
        if (filters.size() == 1) {
            query.setFilter(filters.get(0));
        } else if (filters.size() > 1) {
            query.setFilter(Filter.newBuilder()
                    .setCompositeFilter(CompositeFilter.newBuilder()
                            .setOp(CompositeFilter.Operator.AND)
                            .addAllFilters(filters)));
        }
        RunQueryRequest request = RunQueryRequest.newBuilder()
                .setProjectId(options.getProjectId())
                .setDatabaseId(options.getDatabaseId())
                .setPartitionId(partition())
                .setQuery(query)
                .build();
        RunQueryResponse response = within(deadline, "list", "", () -> rpc.runQuery(request));
        List<String> keys = new ArrayList<>();
        boolean more = false;
        for (EntityResult result : response.getBatch().getEntityResultsList()) {
            if (keys.size() == pageSize) {
                more = true;
                break;
            }
            Key.PathElement element = result.getEntity().getKey().getPath(0);
            keys.add(occurrences ? ObjectKeys.OCCURRENCE_PREFIX + element.getName() : element.getName());
        }
        String last = keys.isEmpty() ? null : keys.get(keys.size() - 1);
        return new KeyPage(
                keys,
                more && last != null
                        ? (occurrences ? last.substring(ObjectKeys.OCCURRENCE_PREFIX.length()) : last)
                        : null);
    }

    /**
     * {@link ObjectKeys#encode}, with the first {@code _} escaped too when the name starts with two: Datastore reserves
     * key names that start and end with {@code __}.
     */
    @Override
    protected String encodeName(String name) {
        String encoded = ObjectKeys.encode(name);
        return encoded.startsWith("__") ? "%5F" + encoded.substring(1) : encoded;
    }

    /** Rejects names whose key name would be longer than Datastore allows (1,500 bytes once encoded). */
    @Override
    public void checkName(String name) {
        keyName(name);
    }

    /**
     * Checks that Datastore answers for the kind, with one keys-only query of one entity: a database in Firestore
     * Native mode, a missing database or a denied role fail it, naming the fix. Nothing to create: a kind comes into
     * being with its first entity.
     */
    @Override
    public StoreSetup init() {
        listKeysUnder("", null, 1, timeouts().forRead());
        return new StoreSetup(
                false,
                "Kind '" + kind + "' of " + where() + " answers; Datastore creates it (and '" + kind + OCCURRENCES
                        + "', for occurrence records) with its first lock. Datastore deletes nothing by itself:"
                        + " occurrence records stay until deleted (delete the entities of kind '" + kind + OCCURRENCES
                        + "' whose lockedAt is older than the retention).");
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /** The kind of the jobs' records. */
    public String kind() {
        return kind;
    }

    private Key key(String name) {
        boolean occurrence = ObjectKeys.relativeKey(name, this::encodeName).startsWith(ObjectKeys.OCCURRENCE_PREFIX);
        return keyOf(occurrence ? kind + OCCURRENCES : kind, keyName(name));
    }

    private Key keyOf(String kindOfKey, String keyName) {
        return Key.newBuilder()
                .setPartitionId(partition())
                .addPath(Key.PathElement.newBuilder().setKind(kindOfKey).setName(keyName))
                .build();
    }

    /** The key name of {@code name}, or an {@link IllegalArgumentException} naming the problem when it is too long. */
    private String keyName(String name) {
        String encoded = encodeName(name);
        if (encoded.length() > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("Lock name '" + ObjectKeys.abbreviate(name) + "' makes a key name of "
                    + encoded.length() + " bytes; Datastore allows " + MAX_KEY_BYTES + ". Letters, digits, '-', '_'"
                    + " and '.' take one byte each, any other character 3 to 12 (it is percent-encoded)");
        }
        return encoded;
    }

    private Filter keyFilter(PropertyFilter.Operator operator, String kindOfKey, String keyName) {
        return Filter.newBuilder()
                .setPropertyFilter(PropertyFilter.newBuilder()
                        .setProperty(keyProperty())
                        .setOp(operator)
                        .setValue(Value.newBuilder().setKeyValue(keyOf(kindOfKey, keyName))))
                .build();
    }

    private static PropertyReference keyProperty() {
        return PropertyReference.newBuilder().setName("__key__").build();
    }

    private PartitionId partition() {
        PartitionId.Builder partition =
                PartitionId.newBuilder().setProjectId(options.getProjectId()).setDatabaseId(options.getDatabaseId());
        if (options.getNamespace() != null) {
            partition.setNamespaceId(options.getNamespace());
        }
        return partition.build();
    }

    /** The entity holding {@code record}, none of its properties indexed. */
    private Entity entity(LockRecord record) {
        Entity.Builder entity = Entity.newBuilder()
                .setKey(key(record.name()))
                .putProperties(LOCK_UNTIL, timestamp(Objects.requireNonNull(record.lockUntil())))
                .putProperties(LOCKED_AT, timestamp(Objects.requireNonNull(record.lockedAt())))
                .putProperties(OWNER, string(Objects.requireNonNull(record.owner())))
                .putProperties(
                        FENCE,
                        Value.newBuilder()
                                .setIntegerValue(record.fence())
                                .setExcludeFromIndexes(true)
                                .build());
        if (record.lockedBy() != null) {
            entity.putProperties(LOCKED_BY, string(record.lockedBy()));
        }
        if (record.watermark() != null) {
            entity.putProperties(WATERMARK, timestamp(record.watermark()));
        }
        return entity.build();
    }

    /** The record {@code entity} holds, with its version; an {@link IllegalArgumentException} when it holds none. */
    private static LockRecord record(String name, Entity entity, long version) {
        Map<String, Value> properties = entity.getPropertiesMap();
        Value fence = properties.get(FENCE);
        if (fence == null || fence.getValueTypeCase() != Value.ValueTypeCase.INTEGER_VALUE) {
            throw new IllegalArgumentException("its property '" + FENCE + "' is not an integer");
        }
        return new LockRecord(
                name,
                instant(properties, LOCK_UNTIL),
                instant(properties, LOCKED_AT),
                string(properties, LOCKED_BY),
                string(properties, OWNER),
                fence.getIntegerValue(),
                instant(properties, WATERMARK),
                new StoreState.ETag(Long.toString(version)));
    }

    private static @Nullable String string(Map<String, Value> properties, String property) {
        Value value = properties.get(property);
        if (value == null || value.getValueTypeCase() == Value.ValueTypeCase.NULL_VALUE) {
            return null;
        }
        if (value.getValueTypeCase() != Value.ValueTypeCase.STRING_VALUE) {
            throw new IllegalArgumentException("its property '" + property + "' is not a string");
        }
        return value.getStringValue();
    }

    private static @Nullable Instant instant(Map<String, Value> properties, String property) {
        Value value = properties.get(property);
        if (value == null || value.getValueTypeCase() == Value.ValueTypeCase.NULL_VALUE) {
            return null;
        }
        if (value.getValueTypeCase() != Value.ValueTypeCase.TIMESTAMP_VALUE) {
            throw new IllegalArgumentException("its property '" + property + "' is not a timestamp");
        }
        return instant(value.getTimestampValue());
    }

    private static Value string(String value) {
        return Value.newBuilder()
                .setStringValue(value)
                .setExcludeFromIndexes(true)
                .build();
    }

    private static Value timestamp(Instant instant) {
        return Value.newBuilder()
                .setTimestampValue(Timestamp.newBuilder()
                        .setSeconds(instant.getEpochSecond())
                        .setNanos(instant.getNano()))
                .setExcludeFromIndexes(true)
                .build();
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private static long version(String etag) {
        try {
            return Long.parseLong(etag);
        } catch (NumberFormatException e) {
            throw new LockStoreException("'" + etag + "' is no Datastore entity version", e);
        }
    }

    /**
     * Whether a commit failed because the entity is not in the state its mutation needs: an insert found it there
     * ({@code ALREADY_EXISTS}), or an update found it gone ({@code NOT_FOUND} "no entity to update": deleted since it
     * was read). Either way another writer changed it, as a version conflict says.
     */
    private static boolean isLostRace(DatastoreException e) {
        return "ALREADY_EXISTS".equals(e.getReason())
                || ("NOT_FOUND".equals(e.getReason())
                        && String.valueOf(e.getMessage()).contains("no entity to update"));
    }

    /** Thrown inside {@link #within} for a commit whose entity another writer changed ({@link #isLostRace}). */
    private static final class LostRace extends RuntimeException {
        LostRace(DatastoreException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /**
     * Runs {@code call} on a worker thread and waits for it until {@code deadline}'s total, translating every failure
     * into a {@link LockStoreException} ({@link #translate}), except a commit whose entity another writer changed,
     * which is a {@link LostRace}.
     */
    private <T> T within(CallTimeouts deadline, String operation, String name, Callable<T> call) {
        Future<T> result = CALLS.submit(call);
        try {
            return result.get(deadline.total().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof DatastoreException datastore && isLostRace(datastore)) {
                throw new LostRace(datastore);
            }
            throw translate(e.getCause(), operation, name, deadline);
        } catch (TimeoutException e) {
            throw deadline.timedOut("Datastore", operation, name, "DatastoreLockProvider.builder()", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException(
                    "Interrupted while waiting for Datastore's answer to the " + operation
                            + (name.isEmpty() ? "" : " of lock '" + name + "'"),
                    e);
        } finally {
            result.cancel(true);
        }
    }

    /**
     * The store error for {@code failure}: by the reason Datastore gave (its canonical error code), else as a call
     * that got no answer.
     */
    LockStoreException translate(Throwable failure, String operation, String name, CallTimeouts deadline) {
        String what = (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " (kind '" + kind + "' of "
                + where() + ")";
        if (!(failure instanceof DatastoreException datastore) || datastore.getReason() == null) {
            if (StoreErrors.isTimeout(failure)) {
                return deadline.timedOut("Datastore", operation, name, "DatastoreLockProvider.builder()", failure);
            }
            return StoreErrors.ofMissingCredentials("Datastore " + what, failure)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "Datastore could not be reached for " + what + ": " + failure.getMessage(), failure));
        }
        String message = datastore.getMessage();
        if (isNotDatastoreMode(datastore)) {
            return new LockStoreConfigurationException(
                    "Datastore refused " + what + ": the database is not in Datastore mode (a Firestore database in"
                            + " Native mode takes the firestore store instead). " + message,
                    failure);
        }
        return switch (datastore.getReason()) {
            case "DEADLINE_EXCEEDED", "CANCELLED" ->
                deadline.timedOut("Datastore", operation, name, "DatastoreLockProvider.builder()", failure);
            case "UNAVAILABLE", "RESOURCE_EXHAUSTED", "INTERNAL", "ABORTED", "UNKNOWN" ->
                new LockStoreUnavailableException(
                        "Datastore " + what + " failed with " + datastore.getReason() + ": "
                                + switch (datastore.getReason()) {
                                    case "UNAVAILABLE" ->
                                        "Datastore could not be reached (network, or an emulator that is not"
                                                + " running?); ";
                                    case "RESOURCE_EXHAUSTED" -> "quota exceeded; ";
                                    case "ABORTED" -> "too much contention on the lock's entity; ";
                                    default -> "an internal error in Datastore; ";
                                }
                                + "retry later. " + message,
                        failure);
            case "NOT_FOUND" ->
                new LockStoreConfigurationException(
                        "Datastore " + what + " failed: the database does not exist. Create it in Datastore mode"
                                + " (gcloud firestore databases create --type=datastore-mode), or correct the project"
                                + " and database. " + message,
                        failure);
            case "FAILED_PRECONDITION" ->
                new LockStoreConfigurationException(
                        "Datastore refused " + what + ": enable the Datastore API (firestore.googleapis.com) for the"
                                + " project. " + message,
                        failure);
            case "PERMISSION_DENIED" ->
                new LockStoreConfigurationException(
                        "Datastore denied " + what + ": grant the caller's identity the Cloud Datastore User role"
                                + " (roles/datastore.user) on the project. " + message,
                        failure);
            case "UNAUTHENTICATED" ->
                new LockStoreConfigurationException(
                        "Datastore rejected the credentials for " + what + ": set up Application Default"
                                + " Credentials. " + message,
                        failure);
            case "INVALID_ARGUMENT" ->
                new LockStoreConfigurationException("Datastore rejected " + what + ": " + message, failure);
            default -> new LockStoreException("Datastore " + what + " failed: " + message, failure);
        };
    }

    /**
     * Whether Datastore refused the call because the database is a Firestore database in Native mode: Datastore says
     * FAILED_PRECONDITION "...not available for Firestore in Native mode database", the Firestore emulator
     * INVALID_ARGUMENT "Database mode not set to Datastore Mode".
     */
    private static boolean isNotDatastoreMode(DatastoreException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return ("FAILED_PRECONDITION".equals(e.getReason()) || "INVALID_ARGUMENT".equals(e.getReason()))
                && (message.contains("native mode") || message.contains("not set to datastore mode"));
    }

    /** {@code project 'p', database 'd'}, with the namespace when there is one. */
    private String where() {
        return "project '" + options.getProjectId() + "', database '"
                + (options.getDatabaseId().isEmpty() ? "(default)" : options.getDatabaseId()) + "'"
                + (options.getNamespace() == null || options.getNamespace().isEmpty()
                        ? ""
                        : ", namespace '" + options.getNamespace() + "'");
    }

    private static String describe(Key key) {
        Key.PathElement element = key.getPath(0);
        return "(kind '" + element.getKind() + "', name '" + element.getName() + "')";
    }
}
