package dev.cloudlock.azuretable;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableErrorCode;
import com.azure.data.tables.models.TableServiceException;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ETagLockStore;
import dev.cloudlock.spi.IsoTimestamps;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.NotALockRecordException;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.spi.StoreErrors;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.spi.StoreState;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link dev.cloudlock.spi.LockStore} on Azure Table Storage conditional writes: one entity per lock in one table,
 * its key from {@link TableKeys} (a job's record in partition {@code jobs}, an occurrence record in partition
 * {@code occurrences}, the percent-encoded lock name as row key), its state in properties named as in every store
 * ({@code lockUntil}, {@code lockedAt}, {@code lastTick}: fixed-width ISO-8601 UTC strings; {@code lockedBy},
 * {@code owner}; {@code fence}: Int64; and {@code name}, the lock name as it is, for people browsing the table).
 * Acquire, release and extend are each one Insert Entity (the entity must be absent: 409 EntityAlreadyExists means
 * another writer won) or one Update Entity, which replaces the entity on condition of its ETag ({@code If-Match}:
 * 412 UpdateConditionNotSatisfied means someone wrote since). Table Storage applies both atomically per entity and
 * gives every write a new ETag. Every other failure is a {@link LockStoreException} that says what is wrong: a
 * {@link LockStoreConfigurationException} for a missing table, rejected credentials or a denied role (fix the setup),
 * a {@link LockStoreUnavailableException} for an unreachable endpoint, a timeout, 503 ServerBusy or another 5xx (retry
 * later), the base type for the rest (such as an entity in the lock partitions that is not a lock record).
 *
 * <p><b>Round trips</b> ({@link ETagLockStore}): one write per steady-state acquire, release and extend; a Get Entity
 * first after another holder. For operators: {@link #list} is a query of a partition plus a Get Entity per lock;
 * {@link #init} finds the table or creates it.
 *
 * <p><b>Deadlines.</b> Every request carries the call's total deadline as the SDK's timeout and the per-attempt
 * deadline as its response timeout (azure-core's {@code azure-response-timeout}), so they bound a client the
 * application built too.
 *
 * <p>Conditions compare core's clock, which is the store's as the {@code Date} header of every response tells it,
 * with {@code lockUntil}: each answer feeds a {@link ClockSkewMonitor}. Thread-safe.
 */
public final class AzureTableLockStore extends ETagLockStore {

    /** The property holding the lock name as it is (the row key holds it encoded). */
    static final String NAME = "name";
    /** azure-core's per-request response timeout, read by its HTTP clients from the request's context. */
    private static final String RESPONSE_TIMEOUT = "azure-response-timeout";

    private static final HttpHeaderName ERROR_CODE = HttpHeaderName.fromString("x-ms-error-code");
    /** The SDK's key of an entity's ETag among its properties (the only way to give an entity one). */
    private static final String ODATA_ETAG = "odata.etag";

    private final TableClient table;
    private final ClockSkewMonitor clockSkew;

    /**
     * @param table the client of the lock table (its account, credentials and HTTP client are the caller's choice)
     * @param clockSkew fed with the {@code Date} header of every response
     * @param timeouts the deadline of every request (total and per attempt), capped at the lease each request protects
     */
    AzureTableLockStore(TableClient table, ClockSkewMonitor clockSkew, CallTimeouts timeouts) {
        super(timeouts);
        this.table = Objects.requireNonNull(table, "table");
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    @Override
    protected Optional<LockRecord> readObject(String name, CallTimeouts deadline) {
        String partition = TableKeys.partition(name);
        String row = TableKeys.rowKey(name);
        Response<TableEntity> response;
        try {
            response = call(
                    () -> table.getEntityWithResponse(partition, row, null, deadline.total(), context(deadline)),
                    Response::getHeaders,
                    AzureTableLockStore::isMissingEntity,
                    "read",
                    name,
                    deadline);
        } catch (TableServiceException missing) {
            return Optional.empty();
        }
        TableEntity entity = response.getValue();
        try {
            return Optional.of(record(name, entity));
        } catch (IllegalArgumentException notOurs) {
            throw new NotALockRecordException(
                    "Entity (PartitionKey '" + partition + "', RowKey '" + row + "') of table '" + table.getTableName()
                            + "' (lock '" + name + "') is not a cloudlock lock record: " + notOurs.getMessage()
                            + ". Another tool writes to the table? Give cloudlock a table of its own.",
                    notOurs);
        }
    }

    @Override
    protected Optional<String> writeObject(
            LockRecord next, @Nullable String ifMatch, String operation, CallTimeouts deadline) {
        TableEntity entity = entity(next);
        try {
            Response<Void> response;
            if (ifMatch == null) {
                response = call(
                        () -> table.createEntityWithResponse(entity, deadline.total(), context(deadline)),
                        Response::getHeaders,
                        AzureTableLockStore::isLostRace,
                        operation,
                        next.name(),
                        deadline);
            } else {
                entity.addProperty(ODATA_ETAG, ifMatch);
                response = call(
                        () -> table.updateEntityWithResponse(
                                entity, TableEntityUpdateMode.REPLACE, true, deadline.total(), context(deadline)),
                        Response::getHeaders,
                        AzureTableLockStore::isLostRace,
                        operation,
                        next.name(),
                        deadline);
            }
            String etag = response.getHeaders().getValue(HttpHeaderName.ETAG);
            if (etag == null || etag.isBlank()) {
                throw new LockStoreException("Table Storage returned no ETag for lock '" + next.name() + "' in"
                        + " table '" + table.getTableName() + "'; the lock's conditional writes need one");
            }
            return Optional.of(quoted(etag));
        } catch (TableServiceException lost) {
            return Optional.empty();
        }
    }

    /**
     * One page of a query of the jobs' partition, or of the occurrence records' (all of them, or one job's: the row
     * keys from {@code <encoded job>%40}), only the row keys selected; the page token is the SDK's continuation token
     * (the next partition and row key). {@link ETagLockStore} then reads each entity: 1 + n requests for a page of n.
     */
    @Override
    protected KeyPage listKeysUnder(String relative, @Nullable String marker, int pageSize, CallTimeouts deadline) {
        boolean occurrences = relative.startsWith(ObjectKeys.OCCURRENCE_PREFIX);
        String partition = occurrences ? TableKeys.OCCURRENCES : TableKeys.JOBS;
        String from = occurrences ? relative.substring(ObjectKeys.OCCURRENCE_PREFIX.length()) : relative;
        // encoded names are ASCII letters, digits, '-', '_', '.' and '%': every row key starting with 'from' sorts
        // before 'from' followed by '{', which comes after them all
        String filter = "PartitionKey eq '" + partition + "'"
                + (from.isEmpty() ? "" : " and RowKey ge '" + from + "' and RowKey lt '" + from + "{'");
        ListEntitiesOptions options =
                new ListEntitiesOptions().setFilter(filter).setTop(pageSize).setSelect(List.of("RowKey"));
        PagedResponse<TableEntity> page = call(
                () -> {
                    PagedIterable<TableEntity> entities =
                            table.listEntities(options, deadline.total(), context(deadline));
                    return (marker == null ? entities.iterableByPage() : entities.iterableByPage(marker))
                            .iterator()
                            .next();
                },
                PagedResponse::getHeaders,
                e -> false,
                "list",
                "",
                deadline);
        List<String> keys = page.getValue().stream()
                .map(entity -> TableKeys.relativeKey(partition, entity.getRowKey()))
                .toList();
        String next = page.getContinuationToken();
        return new KeyPage(keys, next == null || next.isEmpty() ? null : next);
    }

    @Override
    protected String encodeName(String name) {
        return ObjectKeys.encode(name);
    }

    /**
     * Creates the table when it is absent, else finds it: one Create Table, whose 409 TableAlreadyExists means it
     * exists. Creating rather than only checking: a table has no settings cloudlock could choose wrongly, so creating
     * it is exactly what an operator would do next. A role scoped to the table itself may not create it; that case
     * fails naming the fix.
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts().forRead();
        String where = "table '" + table.getTableName() + "' of storage account '" + table.getAccountName() + "'";
        try {
            call(
                    () -> table.createTableWithResponse(deadline.total(), context(deadline)),
                    Response::getHeaders,
                    e -> e.getResponse().getStatusCode() == 409
                            || e.getResponse().getStatusCode() == 403,
                    "setup",
                    "",
                    deadline);
            return new StoreSetup(true, "Created the " + where + ". " + retention());
        } catch (TableServiceException e) {
            if (e.getResponse().getStatusCode() == 409) {
                return new StoreSetup(false, "The " + where + " exists. " + retention());
            }
            throw new LockStoreConfigurationException(
                    "Table Storage denied creating the " + where + " (" + code(e) + "). Create it (az storage table"
                            + " create --account-name " + table.getAccountName() + " --name " + table.getTableName()
                            + "), or give the identity 'Storage Table Data Contributor' on the storage account (a"
                            + " role scoped to the table cannot create it)",
                    e);
        }
    }

    /** What init cannot do: Table Storage deletes nothing by itself. */
    private String retention() {
        return "Job records are in partition '" + TableKeys.JOBS + "', occurrence records in partition '"
                + TableKeys.OCCURRENCES + "'; Table Storage has no expiry, so occurrence records stay until deleted"
                + " (delete the entities of partition '" + TableKeys.OCCURRENCES + "' whose Timestamp is older than"
                + " the retention).";
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /** Rejects names whose row key would be too long (more than 512 characters once encoded). */
    @Override
    public void checkName(String name) {
        TableKeys.rowKey(name);
    }

    /** The entity of {@code record}, without an ETag. */
    private static TableEntity entity(LockRecord record) {
        TableEntity entity = new TableEntity(TableKeys.partition(record.name()), TableKeys.rowKey(record.name()))
                .addProperty(NAME, record.name())
                .addProperty(LOCK_UNTIL, IsoTimestamps.format(record.lockUntil()))
                .addProperty(LOCKED_AT, IsoTimestamps.format(record.lockedAt()))
                .addProperty(OWNER, record.owner())
                .addProperty(FENCE, record.fence());
        if (record.lockedBy() != null) {
            entity.addProperty(LOCKED_BY, record.lockedBy());
        }
        if (record.watermark() != null) {
            entity.addProperty(WATERMARK, IsoTimestamps.format(record.watermark()));
        }
        return entity;
    }

    /** The record {@code entity} holds, with its ETag; an {@link IllegalArgumentException} when it holds none. */
    private static LockRecord record(String name, TableEntity entity) {
        Map<String, Object> properties = entity.getProperties();
        Object fence = properties.get(FENCE);
        if (!(fence instanceof Long || fence instanceof Integer)) {
            throw new IllegalArgumentException("its property '" + FENCE + "' is not a number: " + fence);
        }
        String etag = entity.getETag();
        return new LockRecord(
                name,
                instant(properties, LOCK_UNTIL),
                instant(properties, LOCKED_AT),
                string(properties, LOCKED_BY),
                string(properties, OWNER),
                ((Number) fence).longValue(),
                instant(properties, WATERMARK),
                etag == null ? null : new StoreState.ETag(etag));
    }

    private static @Nullable String string(Map<String, Object> properties, String key) {
        Object value = properties.get(key);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IllegalArgumentException("its property '" + key + "' is not a string: " + value);
    }

    private static @Nullable Instant instant(Map<String, Object> properties, String key) {
        String value = string(properties, key);
        try {
            return value == null ? null : IsoTimestamps.parse(value);
        } catch (DateTimeParseException notATime) {
            throw new IllegalArgumentException("its property '" + key + "' is not a time: " + value, notATime);
        }
    }

    /**
     * The ETag as entities carry it ({@code W/"datetime'...'"}), which is how Table Storage writes it in the
     * {@code ETag} header too. Azurite's header leaves the quotes out ({@code W/datetime'...'}), and the SDK sends a
     * given ETag in the request body as well as in {@code If-Match}, where Azurite refuses the unquoted form (400
     * InvalidInput): quoted, one ETag serves both, and a read's ETag equals a write's.
     */
    static String quoted(String etag) {
        return etag.startsWith("W/") && !etag.startsWith("W/\"") ? "W/\"" + etag.substring(2) + "\"" : etag;
    }

    private static Context context(CallTimeouts deadline) {
        return new Context(RESPONSE_TIMEOUT, deadline.perAttempt());
    }

    /**
     * The error code of Table Storage's answer: from its body, else from its {@code x-ms-error-code} header (a
     * listing's failure comes as a plain {@link HttpResponseException}, and an XML error body, such as a 403's, is not
     * parsed).
     */
    private static @Nullable TableErrorCode code(HttpResponseException e) {
        if (e instanceof TableServiceException table
                && table.getValue() != null
                && table.getValue().getErrorCode() != null) {
            return table.getValue().getErrorCode();
        }
        String header = e.getResponse() == null ? null : e.getResponse().getHeaderValue(ERROR_CODE);
        return header == null ? null : TableErrorCode.fromString(header);
    }

    /** 404 about the entity (ResourceNotFound); a 404 about the table (TableNotFound) is an error. */
    private static boolean isMissingEntity(TableServiceException e) {
        return e.getResponse().getStatusCode() == 404 && !TableErrorCode.TABLE_NOT_FOUND.equals(code(e));
    }

    /**
     * 412 UpdateConditionNotSatisfied: the ETag no longer matches. 409 EntityAlreadyExists: the insert met an entity.
     */
    private static boolean isLostRace(TableServiceException e) {
        int status = e.getResponse().getStatusCode();
        return status == 412 || (status == 409 && TableErrorCode.ENTITY_ALREADY_EXISTS.equals(code(e)));
    }

    /**
     * Runs one Table Storage call and feeds its {@code Date} header to the skew monitor. A
     * {@link TableServiceException} accepted by {@code expected} is rethrown as it is (the caller turns it into a
     * result); every other failure becomes a {@link LockStoreException} that names the problem.
     */
    private <T> T call(
            Supplier<T> request,
            Function<T, HttpHeaders> headers,
            Predicate<TableServiceException> expected,
            String operation,
            String name,
            CallTimeouts deadline) {
        long sent = clockSkew.nanoTime();
        try {
            T response = request.get();
            observeDate(headers.apply(response), sent);
            return response;
        } catch (HttpResponseException e) {
            observeDate(e.getResponse().getHeaders(), sent);
            if (e instanceof TableServiceException table && expected.test(table)) {
                throw table;
            }
            throw translate(e, operation, name);
        } catch (LockStoreException e) {
            throw e;
        } catch (RuntimeException e) {
            if (StoreErrors.isTimeout(e)) {
                throw deadline.timedOut("Table Storage", operation, name, "AzureTableLockProvider.builder()", e);
            }
            throw StoreErrors.ofMissingCredentials("Table Storage " + describe(operation, name), e)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "Table Storage could not be reached for " + describe(operation, name) + ": "
                                    + e.getMessage(),
                            e));
        }
    }

    /**
     * The store error for Table Storage's answer {@code e}. What only Table Storage says is decided here: a missing
     * table is a {@link LockStoreConfigurationException}. Every other answer goes by its HTTP status
     * ({@link StoreErrors#ofHttpStatus}): 401 and 403 (rejected credentials, a missing role) are configuration errors,
     * 503 ServerBusy and the other 5xx are a {@link LockStoreUnavailableException}, the rest plain.
     */
    LockStoreException translate(HttpResponseException e, String operation, String name) {
        String what = describe(operation, name);
        TableErrorCode code = code(e);
        int status = e.getResponse().getStatusCode();
        if (TableErrorCode.TABLE_NOT_FOUND.equals(code)) {
            return new LockStoreConfigurationException(
                    "Table '" + table.getTableName() + "' does not exist in storage account '" + table.getAccountName()
                            + "'. Create it (cloudlock init, or az storage table create --account-name "
                            + table.getAccountName() + " --name " + table.getTableName() + "), or fix the configured"
                            + " table. Operation: " + what,
                    e);
        }
        return StoreErrors.ofHttpStatus(status, problem(e, status, code, what), e);
    }

    /** {@code acquire of lock 'x' (table 'locks' at <endpoint>)}, or {@code list (table 'locks' at <endpoint>)}. */
    private String describe(String operation, String name) {
        return (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " (table '" + table.getTableName()
                + "' at " + table.getTableEndpoint() + ")";
    }

    private String problem(HttpResponseException e, int status, @Nullable TableErrorCode code, String what) {
        String message = e instanceof TableServiceException table
                        && table.getValue() != null
                        && table.getValue().getErrorMessage() != null
                ? table.getValue().getErrorMessage()
                : e.getMessage();
        if (status == 401 || "AuthenticationFailed".equals(String.valueOf(code))) {
            return "Table Storage rejected the credentials for " + what + " (" + code + "): check the account key or"
                    + " connection string, that a SAS token has not expired, and that this machine's clock is right"
                    + " (requests are signed with the time). " + message;
        }
        if (status == 403) {
            return "Table Storage denied " + what + " (" + code + "): check the account key, connection string or"
                    + " SAS (Azurite answers this to a wrong key), the storage account's network rules, and that the"
                    + " identity has the role 'Storage Table Data Contributor' on table '" + table.getTableName()
                    + "' (or a SAS with read, add and update permissions on it). " + message;
        }
        return "Table Storage " + what + " failed with HTTP " + status + " " + code + ": " + message;
    }

    private void observeDate(@Nullable HttpHeaders headers, long sent) {
        if (headers != null) {
            clockSkew.observeHttpDate(headers.getValue(HttpHeaderName.DATE), sent, clockSkew.nanoTime());
        }
    }
}
