package dev.cloudlock.firestore;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import com.google.api.core.ApiFuture;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.FieldPath;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreException;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.QuerySnapshot;
import com.google.cloud.firestore.WriteResult;
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
import dev.cloudlock.spi.KnownStates;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} on Cloud Firestore, on the server's clock and without transactions: one document per lock in
 * one collection.
 *
 * <ul>
 *   <li><b>acquire</b> — one write, conditioned on the state this store last wrote (its own release, in the steady
 *       state of one instance) or read for the name ({@link KnownStates}), when that state is free at core's estimate
 *       of Firestore's time ({@link AcquireRequest#now()}): an {@code update} with {@link Precondition#updatedAt} of
 *       that state's update time, or {@code create()} when it was absent. When this store knows no free state, or that
 *       write fails because someone wrote since (the name then reads first until a read finds this store's own last
 *       write unchanged), a read and then one write: {@code create()} when the document is absent
 *       ({@code ALREADY_EXISTS} means another instance won), or, when the record is free at the read's
 *       {@link DocumentSnapshot#getReadTime() read time}, an {@code update} preconditioned on the version read
 *       ({@code FAILED_PRECONDITION} means another write came in between). The precondition is a compare-and-set on the
 *       whole document, so two instances can never both take the same free record. A precondition cannot compare
 *       {@code lockUntil} with the server's clock; it pins the document to the state the condition was judged on (any
 *       write since, by anyone, changes its update time; a deleted document fails it too), so the judgement of that
 *       state is a judgement of the document. Without a read that judgement is made at core's estimate of Firestore's
 *       clock, as S3's and Blob Storage's are: built from the read and commit times of this store's own responses
 *       against the local monotonic clock, with the lease widened by its uncertainty. In the steady state the state is
 *       this store's own release, whose {@code lockUntil} is no later than the server's time when it was written (free
 *       from then on, whatever the time) unless {@code lockAtLeastFor} was still running. {@code lockedAt} and
 *       {@code lockUntil} are computed from the read time, or, without a read, from that estimate: a client clock that
 *       is off changes nothing.</li>
 *   <li><b>release, extend</b> — one {@code update} with {@code Precondition.updatedAt(<update time of our own last
 *       write>)}. Any write by someone else changes the update time, so the precondition is the owner check.</li>
 * </ul>
 *
 * <p>Document fields: {@code lockUntil}, {@code lockedAt}, {@code lastTick} (Firestore timestamps, millisecond
 * precision), {@code lockedBy}, {@code owner} (strings), {@code fence} (integer, +1 per acquisition). Document ids
 * are the lock names encoded by {@link FirestoreDocumentIds}.
 *
 * <p><b>Time for release and extend.</b> Neither gets a fresh server read. The store estimates the server's time as
 * the server time it last learned for this lock (the update time of our own write, or the read time of the read that
 * found our record) plus the local monotonic time ({@link System#nanoTime()}) elapsed since that response
 * <em>arrived</em>. The server's time was taken before the response left, so the estimate is early by at most that
 * response's latency, never late, and does not depend on the client's wall clock at all ({@code request.now()} is
 * not used); only clock-rate drift over the lease adds to the error. Early is the side that costs nothing:
 * <ul>
 *   <li>a release writes {@code lockUntil} no later than the server's now, so the lock is free at once (or at
 *       {@code lockAtLeastFor}, which is counted from the read time of the acquisition, exactly);</li>
 *   <li>an extension is refused, without a write, once our lease has run out by the estimate; it may still be
 *       accepted up to one response latency after the lease ran out by the server's clock, and that is safe: the
 *       precondition proves nobody has written the record since our write, so nobody has taken the lock, and an
 *       acquirer racing us on the same update time loses (or wins, and then our extension fails).</li>
 * </ul>
 *
 * <p>Errors: a lost race is a normal result. A missing database, a database in Datastore mode, refused or missing
 * credentials and an invalid request are a {@link LockStoreConfigurationException} (fix the setup); an unreachable
 * endpoint, a deadline exceeded, an exhausted quota, an internal error and contention that outlasts the client's
 * retries are a {@link LockStoreUnavailableException} (retry later). Firestore has no missing collection: a
 * collection comes into being with its first document.
 */
public final class FirestoreLockStore implements LockStore {

    private final Firestore firestore;
    private final CollectionReference collection;
    private final ClockSkewMonitor clockSkew = new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE);
    private final CallTimeouts timeouts;
    /** The last state written per name and the last read: where an acquisition starts; null on the old path. */
    private final @Nullable KnownStates known;

    /**
     * @param firestore the Firestore client (its project, database, credentials and retry settings are the caller's
     *     choice)
     * @param collection the collection holding one document per lock
     * @param timeouts the deadline of each operation: the wait for Firestore's answer is bounded by its total (an
     *     acquisition's read and write share it), capped at the lease the operation protects, and the call is
     *     cancelled when it runs out. The per-attempt value does not apply: the client's retry settings bound each
     *     RPC attempt
     */
    FirestoreLockStore(Firestore firestore, String collection, CallTimeouts timeouts) {
        this(firestore, collection, timeouts, true);
    }

    /**
     * @param startFromKnownState {@code false} for the path before {@link KnownStates}: every acquisition reads first
     *     (3 requests per steady-state cycle instead of 2); for measuring one against the other, nothing else
     */
    FirestoreLockStore(Firestore firestore, String collection, CallTimeouts timeouts, boolean startFromKnownState) {
        this.known = startFromKnownState ? new KnownStates(Version::same) : null;
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.firestore = Objects.requireNonNull(firestore, "firestore");
        if (collection == null || collection.isBlank() || collection.contains("/")) {
            throw new IllegalArgumentException("collection must be a non-blank top-level collection id without '/',"
                    + " was '" + collection + "'");
        }
        this.collection = firestore.collection(collection);
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        DocumentReference doc = document(request.name());
        Deadline deadline = new Deadline(timeouts.forAcquire(request));
        Optional<KnownStates.Start> start = known == null ? Optional.empty() : known.startFor(request);
        if (start.isPresent()) {
            // Free in the state this store wrote or read last, at core's estimate of Firestore's time: one write
            // conditioned on that state's update time (or on absence); it fails if anyone has written since.
            Optional<HeldLock> taken = write(request, doc, start.get().base(), request.now(), deadline);
            if (taken.isPresent()) {
                return new AcquireResult.Acquired(taken.get());
            }
        }
        DocumentSnapshot snapshot = readDocument(doc, "acquire (read)", request.name(), deadline);
        Instant now = serverNow(snapshot);
        LockRecord current = snapshot.exists() ? toRecord(request.name(), snapshot, System.nanoTime()) : null;
        if (known != null) {
            known.readForAcquire(request.name(), Optional.ofNullable(current));
        }
        if (current != null && !current.canBeAcquired(now, request.tick())) {
            return new AcquireResult.Lost(Optional.of(current));
        }
        return write(request, doc, current, now, deadline)
                .<AcquireResult>map(AcquireResult.Acquired::new)
                .orElseGet(() -> new AcquireResult.Lost(Optional.empty()));
    }

    /**
     * The acquisition's one write at {@code now}: {@code create()} when {@code base} is {@code null} (no document),
     * else an {@code update} preconditioned on {@code base}'s update time. Empty when that failed: another write came
     * first.
     */
    private Optional<HeldLock> write(
            AcquireRequest request, DocumentReference doc, @Nullable LockRecord base, Instant now, Deadline deadline) {
        long fence = base == null ? 1 : base.fence() + 1;
        Instant lockUntil = request.lockUntilAt(now);
        Map<String, Object> fields = withExpiry(
                request,
                Map.of(
                        LOCK_UNTIL,
                        timestamp(lockUntil),
                        LOCKED_AT,
                        timestamp(now),
                        LOCKED_BY,
                        request.lockedBy(),
                        OWNER,
                        request.owner(),
                        FENCE,
                        fence));
        ApiFuture<WriteResult> write = base == null
                ? doc.create(fields)
                : doc.update(fields, Precondition.updatedAt(Version.of(base).updateTime()));
        Optional<Version> version = awaitWrite(write, "acquire", request.name(), deadline);
        if (version.isEmpty()) {
            if (known != null) {
                known.conditionFailed(request.name(), base);
            }
            return Optional.empty();
        }
        if (known != null) {
            known.wrote(new LockRecord(
                    request.name(),
                    lockUntil,
                    now,
                    request.lockedBy(),
                    request.owner(),
                    fence,
                    base == null ? null : base.watermark(),
                    version.get()));
        }
        return Optional.of(new HeldLock(request.name(), request.owner(), fence, now, lockUntil, version.get()));
    }

    /**
     * {@code fields} with, for an occurrence record, {@value LockFields#EXPIRES_AT}: the timestamp a Firestore TTL
     * policy on that field deletes the document after (within a day or so; never before). No other record carries it.
     */
    private static Map<String, Object> withExpiry(AcquireRequest request, Map<String, Object> fields) {
        if (request.expiresAt() == null) {
            return fields;
        }
        Map<String, Object> expiring = new HashMap<>(fields);
        expiring.put(LockFields.EXPIRES_AT, timestamp(request.expiresAt()));
        return expiring;
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        Version version = Version.decode(lock);
        Instant now = version.estimateServerNow();
        Instant lockUntil = request.lockUntilAt(now);
        Map<String, Object> fields = new HashMap<>();
        fields.put(LOCK_UNTIL, timestamp(lockUntil));
        request.completedTickIfAny().ifPresent(tick -> fields.put(WATERMARK, timestamp(tick)));
        Optional<Version> released =
                conditionalUpdate(lock.name(), fields, version, "release", new Deadline(timeouts.forRelease(request)));
        remember(
                lock, version, released, lockUntil, request.completedTickIfAny().orElse(null));
        return released.isPresent();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refused without a write when our lease has run out by the estimated server time (see the class comment);
     * otherwise one {@code update} preconditioned on our last write.
     */
    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        Version version = Version.decode(lock);
        Instant now = version.estimateServerNow();
        if (!request.leaseRunningAt(now)) {
            return Optional.empty();
        }
        Instant lockUntil = request.lockUntilAt(now);
        Optional<Version> extended = conditionalUpdate(
                lock.name(),
                Map.of(LOCK_UNTIL, timestamp(lockUntil)),
                version,
                "extend",
                new Deadline(timeouts.forExtend(request)));
        remember(lock, version, extended, lockUntil, null);
        return extended.map(v -> new HeldLock(lock.name(), lock.owner(), lock.fence(), now, lockUntil, v));
    }

    /**
     * After a release or extension of {@code lock} at {@code base}: when the write succeeded and {@code base} is the
     * state this store wrote last (so it knows the rest of the record), that state with {@code lockUntil} and, when
     * not {@code null}, the watermark, for the next acquisition to start from; otherwise it forgets the state, and
     * the next acquisition reads.
     */
    private void remember(
            HeldLock lock, Version base, Optional<Version> written, Instant lockUntil, @Nullable Instant watermark) {
        if (known == null) {
            return;
        }
        Optional<LockRecord> mine = known.written(lock.name())
                .filter(r -> lock.owner().equals(r.owner())
                        && Version.of(r).updateTime().equals(base.updateTime()));
        if (written.isEmpty()) {
            mine.ifPresent(was -> known.conditionFailed(lock.name(), was)); // someone wrote since
            return;
        }
        if (mine.isEmpty()) {
            known.forget(lock.name()); // the document is at a state whose other fields this store does not know
            return;
        }
        LockRecord was = mine.get();
        known.wrote(new LockRecord(
                was.name(),
                lockUntil,
                was.lockedAt(),
                was.lockedBy(),
                was.owner(),
                was.fence(),
                watermark == null ? was.watermark() : watermark,
                written.get()));
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
        DocumentSnapshot snapshot = readDocument(document(name), "read", name, new Deadline(deadline));
        Optional<LockRecord> record =
                snapshot.exists() ? Optional.of(toRecord(name, snapshot, System.nanoTime())) : Optional.empty();
        return known == null ? record : known.read(name, record);
    }

    /**
     * The collection's documents in document-id order, {@code pageSize} at most, from one query (its read time feeds
     * the server-time estimate). The page token is the last document's id. Documents whose id is no encoded lock name
     * are not lock records and are skipped (and logged).
     */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        Query query = collection.orderBy(FieldPath.documentId()).limit(pageSize);
        return page(pageToken == null ? query : query.startAfter(pageToken), pageSize);
    }

    /**
     * One job's occurrence records only: the documents whose ids lie from {@code <encoded job>@} to just before
     * {@code <encoded job>A} ({@code A} follows {@code @}), in document-id order, which is tick order (the tick has a
     * fixed width); one query per page. The range may hold another job's records whose name starts with the same
     * text ({@code a@b}'s for {@code a}); core drops them.
     */
    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        String from = FirestoreDocumentIds.encode(CompletedTicks.occurrenceRecordPrefix(job));
        String to = from.substring(0, from.length() - 1) + "A";
        Query query = collection.orderBy(FieldPath.documentId()).endBefore(to).limit(pageSize);
        return page(pageToken == null ? query.startAt(from) : query.startAfter(pageToken), pageSize);
    }

    /** True: one job's occurrence records are a range of document ids. */
    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return true;
    }

    /** One page of {@code query}, which asks for {@code pageSize} documents; its last document's id is the token. */
    private LockRecordPage page(Query query, int pageSize) {
        long sent = clockSkew.nanoTime();
        QuerySnapshot page = await(query.get(), "list", "", new Deadline(timeouts.forRead()));
        long answered = System.nanoTime();
        clockSkew.observe(exactly(page.getReadTime()), Duration.ofNanos(1_000), sent, clockSkew.nanoTime());
        List<LockRecord> records = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        for (QueryDocumentSnapshot document : page.getDocuments()) {
            Optional<String> name = StoredNames.decode(document.getId(), FirestoreDocumentIds::encode);
            if (name.isEmpty()) {
                skipped.add(new LockRecordPage.Skipped(document.getId(), "its id is no encoded lock name"));
                continue;
            }
            try {
                records.add(toRecord(name.get(), document, answered));
            } catch (NotALockRecordException notOurs) {
                skipped.add(new LockRecordPage.Skipped(document.getId(), notOurs.getMessage()));
            }
        }
        List<QueryDocumentSnapshot> documents = page.getDocuments();
        return new LockRecordPage(
                records,
                skipped,
                documents.size() < pageSize
                        ? null
                        : documents.get(documents.size() - 1).getId());
    }

    /**
     * Checks that the database answers a query on the collection. Nothing is created: Firestore creates a collection
     * with its first document. The result names the TTL policy to set for occurrence records, which no client library
     * call sets.
     */
    @Override
    public StoreSetup init() {
        await(collection.limit(1).get(), "setup", "", new Deadline(timeouts.forRead()));
        return new StoreSetup(
                false,
                "Collection '" + collection() + "' of project '"
                        + firestore.getOptions().getProjectId()
                        + "', database '" + firestore.getOptions().getDatabaseId() + "' answers; Firestore"
                        + " creates it with its first lock. Occurrence records expire only under a TTL policy on"
                        + " their field '" + LockFields.EXPIRES_AT + "', which the client libraries cannot set: run"
                        + " `gcloud firestore fields ttls update " + LockFields.EXPIRES_AT + " --collection-group="
                        + collection() + " --enable-ttl --database="
                        + firestore.getOptions().getDatabaseId()
                        + "` (or the gcp-firestore-lock Terraform module's google_firestore_field)");
    }

    /** One read; its read time (Firestore's clock) feeds the estimate core uses to check ticks against. */
    private DocumentSnapshot readDocument(DocumentReference doc, String operation, String name, Deadline deadline) {
        long sent = clockSkew.nanoTime();
        DocumentSnapshot snapshot = await(doc.get(), operation, name, deadline);
        clockSkew.observe(exactly(snapshot.getReadTime()), Duration.ofNanos(1_000), sent, clockSkew.nanoTime());
        return snapshot;
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /** One update preconditioned on {@code version}; the new version, or empty when someone else wrote since. */
    private Optional<Version> conditionalUpdate(
            String name, Map<String, Object> fields, Version version, String operation, Deadline deadline) {
        return awaitWrite(
                document(name).update(fields, Precondition.updatedAt(version.updateTime())), operation, name, deadline);
    }

    /**
     * Waits for a write whose precondition may fail: its version, or empty when the precondition failed. Its update
     * time is the server's commit time, stamped between sending and receiving: it feeds the estimate of Firestore's
     * clock core judges leases by, as a read's read time does.
     */
    private Optional<Version> awaitWrite(
            ApiFuture<WriteResult> write, String operation, String name, Deadline deadline) {
        long sent = clockSkew.nanoTime();
        Optional<WriteResult> written = awaitConditional(write, operation, name, deadline);
        long received = clockSkew.nanoTime();
        return written.map(w -> {
            clockSkew.observe(exactly(w.getUpdateTime()), Duration.ofNanos(1_000), sent, received);
            return Version.ofWrite(w.getUpdateTime(), System.nanoTime());
        });
    }

    /**
     * Waits for a write whose precondition may fail: empty when it did ({@code ALREADY_EXISTS} on create,
     * {@code FAILED_PRECONDITION} on update, {@code NOT_FOUND} when the document is gone).
     */
    private Optional<WriteResult> awaitConditional(
            ApiFuture<WriteResult> write, String operation, String name, Deadline deadline) {
        try {
            return Optional.of(await(write, operation, name, deadline));
        } catch (LockStoreException e) {
            StatusCode.Code code = statusCode(e.getCause());
            if (code == StatusCode.Code.ALREADY_EXISTS
                    || code == StatusCode.Code.FAILED_PRECONDITION
                    || code == StatusCode.Code.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Waits for one Firestore call, translating every failure into a {@link LockStoreException} naming it. */
    private <T> T await(ApiFuture<T> call, String operation, String name, Deadline deadline) {
        try {
            return call.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw deadline.timeouts().timedOut("Firestore", operation, name, "FirestoreLockProvider.builder()", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("Interrupted during Firestore " + operation + " of lock '" + name + "'", e);
        } catch (ExecutionException e) {
            throw translate(e.getCause() == null ? e : e.getCause(), operation, name);
        } catch (RuntimeException e) {
            throw translate(e, operation, name);
        }
    }

    /** The end of one operation's time: its reads and writes share {@code timeouts.total()} from its start. */
    private record Deadline(CallTimeouts timeouts, long endNanos) {
        Deadline(CallTimeouts timeouts) {
            this(timeouts, System.nanoTime() + timeouts.total().toNanos());
        }

        long remainingNanos() {
            return Math.max(0, endNanos - System.nanoTime());
        }
    }

    /**
     * The store error for {@code failure} of {@code operation} on lock {@code name}, by its gRPC status. A missing
     * database ({@code NOT_FOUND} on a read: a missing document is no error), {@code PERMISSION_DENIED},
     * {@code UNAUTHENTICATED}, {@code INVALID_ARGUMENT} and a {@code FAILED_PRECONDITION} that is not ours (a database
     * in Datastore mode; the precondition of our own compare-and-set never gets here, {@link #awaitConditional}
     * turns it into a lost race first) are a {@link LockStoreConfigurationException}; {@code UNAVAILABLE},
     * {@code DEADLINE_EXCEEDED}, {@code RESOURCE_EXHAUSTED}, {@code INTERNAL}, {@code ABORTED} (contention, after
     * the client's retries) and {@code UNKNOWN} (gRPC's word for a call whose outcome it cannot tell, such as
     * "channel closed" when the server went away mid-call) are a {@link LockStoreUnavailableException}. A failure
     * without a status goes by {@link StoreErrors#ofNoAnswer}; any other status is a plain {@link LockStoreException}.
     */
    LockStoreException translate(Throwable failure, String operation, String name) {
        StatusCode.Code code = statusCode(failure);
        String message = describe(code, operation, name) + ": " + failure.getMessage();
        if (code == null) {
            return StoreErrors.ofNoAnswer(message, failure);
        }
        return switch (code) {
            case NOT_FOUND, PERMISSION_DENIED, UNAUTHENTICATED, FAILED_PRECONDITION, INVALID_ARGUMENT ->
                new LockStoreConfigurationException(message, failure);
            case UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, ABORTED, UNKNOWN ->
                new LockStoreUnavailableException(message, failure);
            default -> new LockStoreException(message, failure);
        };
    }

    private String describe(StatusCode.@Nullable Code code, String operation, String name) {
        String what = "Firestore " + (name.isEmpty() ? operation : operation + " of lock '" + name + "'")
                + " in collection '" + collection.getId()
                + "' (project '" + firestore.getOptions().getProjectId() + "', database '"
                + firestore.getOptions().getDatabaseId() + "') failed";
        if (code == null) {
            return what;
        }
        return what + " with " + code
                + switch (code) {
                    case UNAVAILABLE ->
                        ": Firestore could not be reached at '" + endpoint()
                                + "' (network, or an emulator that is not running?)";
                    case DEADLINE_EXCEEDED -> ": Firestore did not answer in time";
                    case PERMISSION_DENIED ->
                        ": the credentials may not read or write this collection; grant the role"
                                + " roles/datastore.user (or a custom role with datastore.entities.get, .create and"
                                + " .update, and .list for listing locks)";
                    case UNAUTHENTICATED -> ": no valid credentials (set up Application Default Credentials)";
                    case NOT_FOUND -> ": the database does not exist; create a Firestore database in Native mode";
                    case FAILED_PRECONDITION -> ": the database may be in Datastore mode; cloudlock needs Native mode";
                    case INVALID_ARGUMENT ->
                        ": Firestore rejected the request; check the client's project and database ids";
                    case RESOURCE_EXHAUSTED -> ": quota exceeded";
                    case ABORTED -> ": too much contention on the lock's document, also after the client's retries";
                    case INTERNAL -> ": an internal error in Firestore";
                    default -> "";
                };
    }

    /** The gRPC status of a failure, found in its cause chain, or {@code null} when it has none. */
    private static StatusCode.@Nullable Code statusCode(@Nullable Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FirestoreException firestoreError && firestoreError.getStatus() != null) {
                return StatusCode.Code.valueOf(
                        firestoreError.getStatus().getCode().name());
            }
            if (t instanceof ApiException apiError) {
                return apiError.getStatusCode().getCode();
            }
        }
        return null;
    }

    private DocumentReference document(String name) {
        return collection.document(FirestoreDocumentIds.encode(name));
    }

    private LockRecord toRecord(String name, DocumentSnapshot snapshot, long answeredNanos) {
        Version version = new Version(snapshot.getUpdateTime(), serverNow(snapshot), answeredNanos);
        try {
            Long fence = snapshot.getLong(FENCE);
            return new LockRecord(
                    name,
                    instant(snapshot.getTimestamp(LOCK_UNTIL)),
                    instant(snapshot.getTimestamp(LOCKED_AT)),
                    snapshot.getString(LOCKED_BY),
                    snapshot.getString(OWNER),
                    fence == null ? 0L : fence,
                    instant(snapshot.getTimestamp(WATERMARK)),
                    version);
        } catch (RuntimeException wrongType) {
            throw new NotALockRecordException(
                    "Document '" + snapshot.getId() + "' of lock '" + name + "' in collection '"
                            + collection.getId()
                            + "' has a field of the wrong type (expected timestamps lockUntil, lockedAt,"
                            + " lastTick, strings lockedBy, owner and an integer fence): is the collection shared with"
                            + " another tool? " + wrongType.getMessage(),
                    wrongType);
        }
    }

    /** The server's time when it served {@code snapshot}, to the millisecond (the precision of our timestamps). */
    private static Instant serverNow(DocumentSnapshot snapshot) {
        return exactly(snapshot.getReadTime()).truncatedTo(ChronoUnit.MILLIS);
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : exactly(timestamp);
    }

    private static Instant exactly(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private String endpoint() {
        String emulatorHost = firestore.getOptions().getEmulatorHost();
        return emulatorHost != null ? emulatorHost : firestore.getOptions().getHost();
    }

    /** The id of the collection holding the lock documents. */
    public String collection() {
        return collection.getId();
    }

    /**
     * What {@link HeldLock#storeState()} and {@link LockRecord#storeState()} carry: the document's update time (the
     * precondition of the next write) and a server time paired with the local {@link System#nanoTime()} at which
     * the response carrying it arrived (the base of the server-time estimate). Only meaningful in this JVM.
     */
    record Version(Timestamp updateTime, Instant serverTime, long answeredNanos) implements StoreState {

        static Version ofWrite(Timestamp updateTime, long answeredNanos) {
            return new Version(updateTime, exactly(updateTime), answeredNanos);
        }

        Instant estimateServerNow() {
            return serverTime
                    .plus(Duration.ofNanos(System.nanoTime() - answeredNanos))
                    .truncatedTo(ChronoUnit.MILLIS);
        }

        /** Whether two states name the same version of the document: the same update time. */
        static boolean same(@Nullable StoreState a, @Nullable StoreState b) {
            return a instanceof Version x
                    && b instanceof Version y
                    && x.updateTime().equals(y.updateTime());
        }

        /** The version of a record this store read or wrote. */
        static Version of(LockRecord record) {
            if (!(record.storeState() instanceof Version version)) {
                throw new IllegalArgumentException("Record of lock '" + record.name() + "' carries no Firestore"
                        + " version (" + record.storeState() + ")");
            }
            return version;
        }

        static Version decode(HeldLock lock) {
            if (!(lock.storeState() instanceof Version version)) {
                throw new IllegalArgumentException("Lock '" + lock.name() + "' carries no Firestore version ("
                        + lock.storeState() + "): it was not acquired through FirestoreLockStore");
            }
            return version;
        }
    }
}
