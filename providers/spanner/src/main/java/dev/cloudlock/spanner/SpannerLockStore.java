package dev.cloudlock.spanner;

import com.google.cloud.Timestamp;
import com.google.cloud.spanner.DatabaseAdminClient;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.Mutation;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.TransactionContext;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreErrors;
import dev.cloudlock.spi.StoreSetup;
import io.grpc.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} on Cloud Spanner, on Spanner's clock: one row per lock in one table ({@link #DDL}), keyed by
 * the lock name as it is.
 *
 * <p>Acquire, release and extend are each one read-write transaction of the client's transaction runner: a query of
 * the lock's row together with {@code CURRENT_TIMESTAMP()}, Spanner's time, then, when the condition holds at that
 * time (acquire: no row, or free and the tick not yet completed; release: the row's owner is ours; extend: ours and
 * its lease still running), one mutation buffered in the same transaction (an insert for a first acquisition, else an
 * update of the columns that change), and the commit. The query locks the row for the transaction, so a concurrent
 * writer of the same row makes one of the two transactions abort, and the runner retries it from the query, which
 * then sees the other's write: two instances never both take a free lock. Leases are computed from Spanner's time,
 * never from the client's clock ({@code request.now()} is not used). Each operation costs two RPCs: the query
 * ({@code ExecuteStreamingSql}, which begins the transaction inline) and {@code Commit}; an abort repeats both.
 *
 * <p>Columns: {@code name} (the key), {@code lock_until}, {@code locked_at}, {@code last_tick} (the watermark),
 * {@code expires_at} (set on occurrence records only, read by the table's row deletion policy) as TIMESTAMP;
 * {@code locked_by}, {@code owner} as STRING; {@code fence} as INT64, +1 per acquisition.
 *
 * <p>Errors: a lost race is a normal result. A missing instance, database or table, a table of another layout,
 * refused credentials and a missing role ({@code roles/spanner.databaseUser}) are a
 * {@link LockStoreConfigurationException} (fix the setup); an unreachable endpoint, a deadline exceeded, an
 * exhausted quota, an internal error and contention that outlasts the runner's retries within the deadline are a
 * {@link LockStoreUnavailableException} (retry later), never "held".
 *
 * <p><b>Deadlines.</b> Each operation runs in a gRPC context whose deadline is the call's total deadline (an
 * acquisition's capped at its lease); the client ends every RPC and the runner's retries at it. The per-attempt
 * deadline does not apply: the client's retry settings bound each RPC. Thread-safe.
 */
public final class SpannerLockStore implements LockStore {

    /** A Spanner table name: a letter, then letters, digits and underscores, 128 characters at most. */
    static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,127}");

    /** The columns, in the order every query reads them. */
    private static final String COLUMNS = "name, lock_until, locked_at, locked_by, owner, fence, last_tick";

    /** The column types the table must have (as INFORMATION_SCHEMA.COLUMNS spells them). */
    private static final Map<String, String> LAYOUT = layout();

    /** Ends the gRPC contexts' deadlines; one daemon thread for every store. */
    private static final ScheduledExecutorService DEADLINES =
            Executors.newSingleThreadScheduledExecutor(daemon("cloudlock-spanner-deadlines"));

    /** Runs the operations, so that a caller waits no longer than its deadline ({@link #within}). */
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(daemon("cloudlock-spanner-call"));

    private final DatabaseClient client;
    private final DatabaseAdminClient admin;
    private final DatabaseId database;
    private final String table;
    private final CallTimeouts timeouts;

    /**
     * @param client the client of the database (its credentials, endpoint and retry settings are the caller's choice)
     * @param admin the administration client, for {@link #init} to create the table
     * @param database the database {@code client} serves, for messages and {@link #init}
     * @param table the table of the lock rows
     * @param timeouts the deadline of every operation, capped at the lease it protects
     */
    SpannerLockStore(
            DatabaseClient client,
            DatabaseAdminClient admin,
            DatabaseId database,
            String table,
            CallTimeouts timeouts) {
        this.client = Objects.requireNonNull(client, "client");
        this.admin = Objects.requireNonNull(admin, "admin");
        this.database = Objects.requireNonNull(database, "database");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        if (table == null || !TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("table must be a Spanner table name (a letter, then letters, digits"
                    + " and underscores, at most 128 characters), was '" + table + "'");
        }
        this.table = table;
    }

    /**
     * The DDL of the lock table {@code table}: occurrence records carry {@code expires_at}, after which the row
     * deletion policy deletes them (within days); job records leave it null and are never deleted.
     */
    static String ddl(String table) {
        return "CREATE TABLE " + table + " (\n"
                + "  name STRING(1024) NOT NULL,\n"
                + "  lock_until TIMESTAMP,\n"
                + "  locked_at TIMESTAMP,\n"
                + "  locked_by STRING(MAX),\n"
                + "  owner STRING(MAX),\n"
                + "  fence INT64,\n"
                + "  last_tick TIMESTAMP,\n"
                + "  expires_at TIMESTAMP,\n"
                + ") PRIMARY KEY (name),\n"
                + "  ROW DELETION POLICY (OLDER_THAN(expires_at, INTERVAL 0 DAY))";
    }

    /** The DDL of the default table {@code shedlock}, as {@link #init} runs it. */
    public static final String DDL = ddl(SpannerLockProvider.DEFAULT_TABLE);

    private static Map<String, String> layout() {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("name", "STRING(1024)");
        columns.put("lock_until", "TIMESTAMP");
        columns.put("locked_at", "TIMESTAMP");
        columns.put("locked_by", "STRING(MAX)");
        columns.put("owner", "STRING(MAX)");
        columns.put("fence", "INT64");
        columns.put("last_tick", "TIMESTAMP");
        columns.put("expires_at", "TIMESTAMP");
        return Map.copyOf(columns);
    }

    /** The row and Spanner's time, as one query of a read-write transaction read them. */
    private record Read(@Nullable LockRecord record, Instant now) {}

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        return transaction("acquire", request.name(), timeouts.forAcquire(request), tx -> {
            Read read = readForUpdate(tx, request.name());
            LockRecord current = read.record();
            if (current != null && !current.canBeAcquired(read.now(), request.tick())) {
                return new AcquireResult.Lost(Optional.of(current));
            }
            long fence = current == null ? 1 : current.fence() + 1;
            Instant lockUntil = request.lockUntilAt(read.now());
            Mutation.WriteBuilder row =
                    current == null ? Mutation.newInsertBuilder(table) : Mutation.newUpdateBuilder(table);
            tx.buffer(row.set("name")
                    .to(request.name())
                    .set("lock_until")
                    .to(timestamp(lockUntil))
                    .set("locked_at")
                    .to(timestamp(read.now()))
                    .set("locked_by")
                    .to(request.lockedBy())
                    .set("owner")
                    .to(request.owner())
                    .set("fence")
                    .to(fence)
                    .set("expires_at")
                    .to(request.expiresAt() == null ? null : timestamp(request.expiresAt()))
                    .build());
            return new AcquireResult.Acquired(
                    new HeldLock(request.name(), request.owner(), fence, read.now(), lockUntil, null));
        });
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        return transaction("release", lock.name(), timeouts.forRelease(request), tx -> {
            Read read = readForUpdate(tx, lock.name());
            if (read.record() == null || !lock.owner().equals(read.record().owner())) {
                return false;
            }
            Mutation.WriteBuilder row = Mutation.newUpdateBuilder(table)
                    .set("name")
                    .to(lock.name())
                    .set("lock_until")
                    .to(timestamp(request.lockUntilAt(read.now())));
            request.completedTickIfAny().ifPresent(tick -> row.set("last_tick").to(timestamp(tick)));
            tx.buffer(row.build());
            return true;
        });
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        return transaction("extend", lock.name(), timeouts.forExtend(request), tx -> {
            Read read = readForUpdate(tx, lock.name());
            LockRecord current = read.record();
            if (current == null || !lock.owner().equals(current.owner()) || current.isFreeAt(read.now())) {
                return Optional.<HeldLock>empty();
            }
            Instant lockUntil = request.lockUntilAt(read.now());
            tx.buffer(Mutation.newUpdateBuilder(table)
                    .set("name")
                    .to(lock.name())
                    .set("lock_until")
                    .to(timestamp(lockUntil))
                    .build());
            return Optional.of(new HeldLock(lock.name(), lock.owner(), lock.fence(), read.now(), lockUntil, null));
        });
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return read(name, timeouts.forRead());
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return read(name, timeouts.forSettling(leaseLeft));
    }

    /** A strong single-use read of the row: one {@code ExecuteStreamingSql}. */
    private Optional<LockRecord> read(String name, CallTimeouts deadline) {
        return within(deadline, "read", name, () -> {
            try (ResultSet rows = client.singleUse()
                    .executeQuery(Statement.newBuilder("SELECT " + COLUMNS + " FROM " + table + " WHERE name = @name")
                            .bind("name")
                            .to(name)
                            .build())) {
                return rows.next() ? Optional.of(record(rows)) : Optional.empty();
            }
        });
    }

    /** The row of {@code name} and Spanner's time, read in {@code tx}, which locks the row until it ends. */
    private Read readForUpdate(TransactionContext tx, String name) {
        try (ResultSet rows = tx.executeQuery(Statement.newBuilder("SELECT CURRENT_TIMESTAMP() AS now, r.* FROM"
                        + " (SELECT 1) LEFT JOIN (SELECT " + COLUMNS + " FROM " + table + " WHERE name = @name) r"
                        + " ON TRUE")
                .bind("name")
                .to(name)
                .build())) {
            if (!rows.next()) {
                throw new LockStoreException("Spanner answered no row to the read of lock '" + name + "'");
            }
            Instant now = instant(rows.getTimestamp("now")).truncatedTo(ChronoUnit.MILLIS);
            return new Read(rows.isNull("name") ? null : record(rows), now);
        }
    }

    /**
     * The lock records in name order, {@code pageSize} at most, from one strong single-use query; the page token is
     * the last name of the page.
     */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        return page("", pageToken, pageSize);
    }

    /** One job's occurrence records only, by the key prefix {@code <job>@}: one query. */
    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        return page(CompletedTicks.occurrenceRecordPrefix(job), pageToken, pageSize);
    }

    /** True: one job's occurrence records are read by their key prefix. */
    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return true;
    }

    private LockRecordPage page(String prefix, @Nullable String pageToken, int pageSize) {
        String after = pageToken == null ? "" : pageToken;
        return within(timeouts.forRead(), "list", "", () -> {
            List<LockRecord> records = new ArrayList<>();
            boolean more = false;
            try (ResultSet rows = client.singleUse()
                    .executeQuery(Statement.newBuilder("SELECT " + COLUMNS + " FROM " + table
                                    + " WHERE name > @after AND STARTS_WITH(name, @prefix) ORDER BY name LIMIT @limit")
                            .bind("after")
                            .to(after)
                            .bind("prefix")
                            .to(prefix)
                            .bind("limit")
                            .to(pageSize + 1L)
                            .build())) {
                while (rows.next()) {
                    if (records.size() == pageSize) {
                        more = true;
                        break;
                    }
                    records.add(record(rows));
                }
            }
            return new LockRecordPage(
                    records, List.of(), more ? records.get(records.size() - 1).name() : null);
        });
    }

    /**
     * Creates the table with {@link #ddl} when the database has none of that name (which takes the role
     * {@code roles/spanner.databaseAdmin}), else checks its columns ({@link #checkLayout}, which
     * {@code roles/spanner.databaseUser} may do).
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts.forRead();
        if (!columns(deadline).isEmpty()) {
            checkLayout();
            return new StoreSetup(false, "The table '" + table + "' of " + where() + " exists. " + retention());
        }
        try {
            admin.updateDatabaseDdl(
                            database.getInstanceId().getInstance(), database.getDatabase(), List.of(ddl(table)), null)
                    .get(
                            Math.max(
                                    deadline.total().toMillis(),
                                    Duration.ofMinutes(1).toMillis()),
                            TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("Interrupted while creating the table '" + table + "' of " + where(), e);
        } catch (ExecutionException | TimeoutException | SpannerException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (cause instanceof SpannerException spanner && spanner.getErrorCode() == ErrorCode.PERMISSION_DENIED) {
                throw new LockStoreConfigurationException(
                        "Spanner denied creating the table '" + table + "' of "
                                + where()
                                + ": run its DDL as a database administrator (roles/spanner.databaseAdmin), e.g."
                                + " gcloud spanner databases ddl update " + database.getDatabase() + " --instance="
                                + database.getInstanceId().getInstance() + " --ddl='"
                                + ddl(table).replace('\n', ' ') + "'",
                        cause);
            }
            throw translate(cause, "setup", "", deadline);
        }
        return new StoreSetup(true, "Created the table '" + table + "' of " + where() + ". " + retention());
    }

    private String retention() {
        return "Occurrence records carry expires_at; the table's row deletion policy deletes them after it (within"
                + " days); job records are never deleted.";
    }

    /** Checks that the table has the columns of {@link #ddl} with their types, naming what differs. */
    @Override
    public void checkLayout() {
        Map<String, String> columns = columns(timeouts.forRead());
        if (columns.isEmpty()) {
            throw missingTable("check", null);
        }
        List<String> wrong = new ArrayList<>();
        LAYOUT.forEach((column, type) -> {
            String found = columns.get(column);
            if (found == null) {
                wrong.add("column " + column + " " + type + " is missing");
            } else if (!found.equals(type) && !(column.equals("name") && found.startsWith("STRING"))) {
                wrong.add("column " + column + " is " + found + ", not " + type);
            }
        });
        if (!wrong.isEmpty()) {
            throw new LockStoreConfigurationException("The table '" + table + "' of " + where() + " is not a"
                    + " cloudlock lock table: " + String.join("; ", wrong) + ". Give cloudlock a table of its own"
                    + " (the table setting), created by cloudlock init with this DDL: "
                    + ddl(table).replace('\n', ' '));
        }
    }

    /** The table's columns and their types, empty when there is no such table. */
    private Map<String, String> columns(CallTimeouts deadline) {
        return within(deadline, "check", "", () -> {
            Map<String, String> columns = new LinkedHashMap<>();
            try (ResultSet rows = client.singleUse()
                    .executeQuery(Statement.newBuilder("SELECT COLUMN_NAME, SPANNER_TYPE FROM"
                                    + " INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = '' AND TABLE_NAME = @table")
                            .bind("table")
                            .to(table)
                            .build())) {
                while (rows.next()) {
                    columns.put(rows.getString(0), rows.getString(1));
                }
            }
            return columns;
        });
    }

    private <T> T transaction(
            String operation, String name, CallTimeouts deadline, Function<TransactionContext, T> work) {
        return within(deadline, operation, name, () -> {
            for (int attempt = 1; ; attempt++) {
                try {
                    return client.readWriteTransaction().run(work::apply);
                } catch (SpannerException e) {
                    if (!isLostTransaction(e) || Context.current().isCancelled()) {
                        throw e;
                    }
                    // as after an abort: nothing of it was applied, and the next attempt reads afresh, after a
                    // random pause that grows with the attempts, so that rivals stop rolling back each other
                    Thread.sleep(ThreadLocalRandom.current().nextLong(1, 1 + Math.min(200, 10L * attempt)));
                }
            }
        });
    }

    /**
     * Whether {@code e} says the transaction is gone (NOT_FOUND "Transaction not found", FAILED_PRECONDITION "Invalid
     * transaction ID" or "Cannot read or query using a transaction after it has been committed or rolledback"): the
     * emulator's answers to a transaction it rolled back for a newer one (it runs one at a time), where Spanner
     * answers ABORTED, which the runner retries itself. Safe to run again as after an abort: had the commit been
     * applied before its answer was lost, the new attempt reads that write and its condition fails.
     */
    static boolean isLostTransaction(SpannerException e) {
        return (e.getErrorCode() == ErrorCode.NOT_FOUND || e.getErrorCode() == ErrorCode.FAILED_PRECONDITION)
                && String.valueOf(e.getMessage())
                        .toLowerCase(java.util.Locale.ROOT)
                        .contains("transaction");
    }

    /**
     * Runs {@code call} on a worker thread, in a gRPC context that ends at {@code deadline}'s total, and waits for it
     * until then, translating every failure into a {@link LockStoreException}. The worker is what bounds the wait:
     * the client's rollback of a failed transaction waits for its RPC without the context's deadline.
     */
    private <T> T within(CallTimeouts deadline, String operation, String name, Callable<T> call) {
        Context.CancellableContext context =
                Context.current().withDeadlineAfter(deadline.total().toMillis(), TimeUnit.MILLISECONDS, DEADLINES);
        Future<T> result = CALLS.submit(() -> context.call(call));
        try {
            return result.get(deadline.total().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LockStoreException store) {
                throw store;
            }
            throw translate(e.getCause(), operation, name, deadline);
        } catch (TimeoutException e) {
            throw deadline.timedOut("Cloud Spanner", operation, name, "SpannerLockProvider.builder()", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException(
                    "Interrupted while waiting for Cloud Spanner's answer to the " + operation
                            + (name.isEmpty() ? "" : " of lock '" + name + "'"),
                    e);
        } finally {
            context.cancel(null);
            result.cancel(true);
        }
    }

    /**
     * The store error for {@code failure}: by its Spanner error code (a missing table is INVALID_ARGUMENT "Table not
     * found", a missing database or instance NOT_FOUND), else as a call that got no answer.
     */
    LockStoreException translate(Throwable failure, String operation, String name, CallTimeouts deadline) {
        String what = (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " (table '" + table
                + "' of " + where() + ")";
        SpannerException spanner = failure instanceof SpannerException e ? e : null;
        if (spanner == null) {
            if (StoreErrors.isTimeout(failure)) {
                return deadline.timedOut("Cloud Spanner", operation, name, "SpannerLockProvider.builder()", failure);
            }
            return StoreErrors.ofMissingCredentials("Cloud Spanner " + what, failure)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "Cloud Spanner could not be reached for " + what + ": " + failure.getMessage(), failure));
        }
        String message = spanner.getMessage();
        return switch (spanner.getErrorCode()) {
            case DEADLINE_EXCEEDED, CANCELLED ->
                deadline.timedOut("Cloud Spanner", operation, name, "SpannerLockProvider.builder()", failure);
            case UNAVAILABLE, RESOURCE_EXHAUSTED, INTERNAL, ABORTED ->
                new LockStoreUnavailableException(
                        "Cloud Spanner " + what + " failed with " + spanner.getErrorCode() + ": "
                                + switch (spanner.getErrorCode()) {
                                    case UNAVAILABLE ->
                                        "Spanner could not be reached (network, or an emulator that is"
                                                + " not running?); ";
                                    case RESOURCE_EXHAUSTED -> "quota exceeded; ";
                                    case ABORTED ->
                                        "too much contention on the lock's row, also after the"
                                                + " transaction runner's retries; ";
                                    default -> "an internal error in Spanner; ";
                                }
                                + "retry later. " + message,
                        failure);
            case NOT_FOUND ->
                new LockStoreConfigurationException(
                        "Cloud Spanner " + what + " failed: the instance or database does not exist. Create the"
                                + " database (gcloud spanner databases create " + database.getDatabase()
                                + " --instance=" + database.getInstanceId().getInstance() + "), or correct the"
                                + " project, instance and database settings. " + message,
                        failure);
            case INVALID_ARGUMENT ->
                message != null && message.contains("Table not found")
                        ? missingTable(what, failure)
                        : new LockStoreConfigurationException(
                                "Cloud Spanner rejected " + what + ": the table may not have cloudlock's layout"
                                        + " (check it with cloudlock check). " + message,
                                failure);
            case PERMISSION_DENIED ->
                new LockStoreConfigurationException(
                        "Cloud Spanner denied " + what + ": grant the caller's identity the role"
                                + " roles/spanner.databaseUser on the database (or the instance). " + message,
                        failure);
            case UNAUTHENTICATED ->
                new LockStoreConfigurationException(
                        "Cloud Spanner rejected the credentials for " + what + ": set up Application Default"
                                + " Credentials. " + message,
                        failure);
            default -> new LockStoreException("Cloud Spanner " + what + " failed: " + message, failure);
        };
    }

    private LockStoreConfigurationException missingTable(String what, @Nullable Throwable cause) {
        return new LockStoreConfigurationException(
                "The table '" + table + "' does not exist in " + where() + ". Create it (cloudlock init, or run this"
                        + " DDL: " + ddl(table).replace('\n', ' ') + "), or correct the table setting. Operation: "
                        + what,
                cause);
    }

    /** {@code database 'd' of instance 'i' in project 'p'}. */
    private String where() {
        return "database '" + database.getDatabase() + "' of instance '"
                + database.getInstanceId().getInstance() + "' in project '"
                + database.getInstanceId().getProject() + "'";
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static LockRecord record(ResultSet rows) {
        return new LockRecord(
                rows.getString("name"),
                instantOrNull(rows, "lock_until"),
                instantOrNull(rows, "locked_at"),
                rows.isNull("locked_by") ? null : rows.getString("locked_by"),
                rows.isNull("owner") ? null : rows.getString("owner"),
                rows.isNull("fence") ? 0 : rows.getLong("fence"),
                instantOrNull(rows, "last_tick"),
                null);
    }

    private static @Nullable Instant instantOrNull(ResultSet rows, String column) {
        return rows.isNull(column) ? null : instant(rows.getTimestamp(column));
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }
}
