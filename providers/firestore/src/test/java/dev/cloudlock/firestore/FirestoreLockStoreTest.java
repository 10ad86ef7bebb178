package dev.cloudlock.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.gax.tracing.ApiTracer;
import com.google.api.gax.tracing.ApiTracerFactory;
import com.google.api.gax.tracing.BaseApiTracer;
import com.google.api.gax.tracing.SpanName;
import com.google.cloud.NoCredentials;
import com.google.cloud.Timestamp;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Firestore specifics on the emulator: leases on the server's clock whatever the client's clock says, the document
 * layout, round trips per operation, document ids, and errors that name their cause.
 */
class FirestoreLockStoreTest {

    /** The RPCs the client sent, by method name ("BatchGetDocuments", "Commit"), one entry per attempt. */
    private static final List<String> RPCS = new ArrayList<>();

    private static final ApiTracerFactory COUNTER =
            (ApiTracer parent, SpanName span, ApiTracerFactory.OperationType type) -> new BaseApiTracer() {
                @Override
                public void attemptStarted(Object request, int attemptNumber) {
                    synchronized (RPCS) {
                        RPCS.add(span.getMethodName());
                    }
                }
            };
    private static final Firestore CLIENT = FirestoreBackends.client(COUNTER);

    @BeforeEach
    void reset() {
        Emulators.resetFirestore();
    }

    @AfterEach
    void restoreClock() {
        ClockProvider.setClock(Clock.systemUTC());
    }

    private static CloudLockProvider provider(String lockedBy) {
        return FirestoreLockProvider.builder()
                .firestore(CLIENT)
                .collection(FirestoreBackends.COLLECTION)
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name, Duration lockAtMostFor) {
        return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, Duration.ZERO);
    }

    @Test
    void aClientClock30SecondsAheadCannotTakeALockStillHeldByServerTime() {
        FencedLock held = provider("on-time")
                .tryLock(config("skew-ahead", Duration.ofSeconds(10)))
                .orElseThrow();

        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30)));
        assertThat(provider("ahead").lock(config("skew-ahead", Duration.ofSeconds(10))))
                .as("by its own clock the lease ended 20 s ago; by Firestore's it has 10 s to go")
                .isEmpty();

        // The holder's own extend and release do not depend on the client clock either.
        Instant before = Instant.now();
        FencedLock extended = (FencedLock) held.extend(Duration.ofSeconds(20), Duration.ZERO)
                .orElseThrow(() -> new AssertionError("extend refused: the lease looked expired by the skewed clock"));
        assertThat(record("skew-ahead").lockUntil()).isBetween(before.plusSeconds(19), before.plusSeconds(21));
        extended.unlock();
        assertThat(record("skew-ahead").lockUntil())
                .as("released to the server's now, not the client's")
                .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));

        FencedLock taken = provider("ahead")
                .tryLock(config("skew-ahead", Duration.ofSeconds(10)))
                .orElseThrow();
        LockRecord record = record("skew-ahead");
        assertThat(record.lockedAt())
                .as("lockedAt is the server's time")
                .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
        assertThat(record.lockUntil())
                .as("the lease, widened by the store-time uncertainty because this client's clock disagrees")
                .isBetween(record.lockedAt().plusSeconds(10), record.lockedAt().plusSeconds(11));
        taken.unlock();
    }

    @Test
    void aClientClock30SecondsBehindCanTakeALockWhoseLeaseRanOut() throws InterruptedException {
        provider("on-time")
                .tryLock(config("skew-behind", Duration.ofMillis(200)))
                .orElseThrow();
        Thread.sleep(400);
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-30)));
        FencedLock taken = provider("behind")
                .tryLock(config("skew-behind", Duration.ofSeconds(10)))
                .orElseThrow(() -> new AssertionError("by Firestore's clock the lease ran out 200 ms ago"));
        assertThat(record("skew-behind").lockedAt()).isAfter(Instant.now().minusSeconds(5));
        taken.unlock();
    }

    @Test
    void roundTripsPerOperation() {
        CloudLockProvider provider = provider("me");
        rpcs();
        FencedLock first = provider.tryLock(config("rt", Duration.ofMinutes(1))).orElseThrow();
        assertThat(rpcs())
                .as("first-ever acquire, and the first call of a process: a read for Firestore's time, from which the"
                        + " acquisition starts, and create")
                .containsExactly("BatchGetDocuments", "Commit");
        FencedLock extended =
                (FencedLock) first.extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow();
        assertThat(rpcs()).as("extend").containsExactly("Commit");
        assertThat(provider.lock(config("rt", Duration.ofMinutes(1)))).isEmpty();
        assertThat(rpcs()).as("refused while held: the read shows the lease").containsExactly("BatchGetDocuments");
        extended.unlock();
        assertThat(rpcs()).as("release").containsExactly("Commit");
        provider.tryLock(config("rt", Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(rpcs())
                .as("steady-state acquire (an update preconditioned on our own release) and release")
                .containsExactly("Commit", "Commit");
    }

    @Test
    void aSteadyStateCycleIsTwoRequestsAndTheOldPathThree() {
        CloudLockProvider provider = provider("me");
        CloudLockProvider oldPath = new CloudLockProvider(
                new FirestoreLockStore(
                        CLIENT, FirestoreBackends.COLLECTION, dev.cloudlock.spi.CallTimeouts.DEFAULT, false),
                "old");
        provider.tryLock(config("cycle", Duration.ofMinutes(1))).orElseThrow().unlock();
        oldPath.tryLock(config("cycle-old", Duration.ofMinutes(1)))
                .orElseThrow()
                .unlock();
        rpcs();
        long fence = 0;
        for (int i = 0; i < 20; i++) {
            FencedLock lock =
                    provider.tryLock(config("cycle", Duration.ofMinutes(1))).orElseThrow();
            assertThat(lock.fencingToken()).as("every acquisition a new fence").isGreaterThan(fence);
            fence = lock.fencingToken();
            lock.unlock();
        }
        assertThat(rpcs())
                .as("20 steady-state cycles: one Commit to acquire, one to release")
                .hasSize(40)
                .containsOnly("Commit");
        assertThat(record("cycle").fence()).isEqualTo(fence);
        rpcs();
        for (int i = 0; i < 20; i++) {
            oldPath.tryLock(config("cycle-old", Duration.ofMinutes(1)))
                    .orElseThrow()
                    .unlock();
        }
        assertThat(rpcs()).as("the old path: read, update, release").hasSize(60);
    }

    @Test
    void anotherWriterInBetweenCostsTheFallbackReadAndTheAnswerStaysRight() {
        CloudLockProvider a = provider("a");
        CloudLockProvider b = provider("b");
        a.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow().unlock();
        FencedLock byB = b.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow();
        rpcs();
        assertThat(a.tryLock(config("between", Duration.ofMinutes(1))))
                .as("b holds it: a's remembered free state is stale")
                .isEmpty();
        assertThat(rpcs())
                .as("the update preconditioned on a's own release fails, then the read shows b's lease")
                .containsExactly("Commit", "BatchGetDocuments");
        byB.unlock();
        rpcs();
        FencedLock byA = a.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow();
        assertThat(byA.fencingToken()).as("after b's fence").isEqualTo(3);
        assertThat(rpcs())
                .as("the failed update dropped a's stale state: read, then update")
                .containsExactly("BatchGetDocuments", "Commit");
        byA.unlock();
        rpcs();
        // a's failed update told it others write the name: it reads first until a read finds its own release
        // unchanged, then starts from its release again; b remembers its own release, which a has written over
        // since, so b's acquisition costs one failed write before the read.
        a.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(rpcs())
                .as("a again: the read finds a's own release unchanged, update, release")
                .containsExactly("BatchGetDocuments", "Commit", "Commit");
        a.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(rpcs()).as("a again: the steady state").containsExactly("Commit", "Commit");
        FencedLock againB = b.tryLock(config("between", Duration.ofMinutes(1))).orElseThrow();
        assertThat(rpcs())
                .as("b's remembered release is stale: the failed update, the read, the update")
                .containsExactly("Commit", "BatchGetDocuments", "Commit");
        assertThat(againB.fencingToken()).isEqualTo(6);
        againB.unlock();
    }

    @Test
    void twoInstancesTakingTurnsPayOneFailedWritePerRunOfTurns() {
        CloudLockProvider a = provider("a");
        CloudLockProvider b = provider("b");
        a.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow().unlock();
        b.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow().unlock();
        rpcs();
        for (CloudLockProvider turn : List.of(a, b)) {
            turn.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow().unlock();
            assertThat(rpcs())
                    .as(
                            "%s's remembered release is stale: the failed update, the read, the update, the release",
                            turn.lockedBy())
                    .containsExactly("Commit", "BatchGetDocuments", "Commit", "Commit");
        }
        for (int i = 0; i < 3; i++) {
            for (CloudLockProvider turn : List.of(a, b)) {
                turn.tryLock(config("turns", Duration.ofMinutes(1)))
                        .orElseThrow()
                        .unlock();
                assertThat(rpcs())
                        .as(
                                "%s knows others write the name: read, update, release, as before KnownStates",
                                turn.lockedBy())
                        .containsExactly("BatchGetDocuments", "Commit", "Commit");
            }
        }
        FencedLock last = a.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow();
        assertThat(last.fencingToken()).as("one per acquisition").isEqualTo(11);
        last.unlock();
        rpcs();
        a.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(rpcs())
                .as("a in a row: the read finds a's own release unchanged, update, release")
                .containsExactly("BatchGetDocuments", "Commit", "Commit");
        a.tryLock(config("turns", Duration.ofMinutes(1))).orElseThrow().unlock();
        assertThat(rpcs()).as("the steady state again").containsExactly("Commit", "Commit");
    }

    @Test
    void aDocumentDeletedSinceOurReleaseIsCreatedAgainAfterTheFailedUpdate() throws Exception {
        CloudLockProvider a = provider("a");
        a.tryLock(config("deleted", Duration.ofMinutes(1))).orElseThrow().unlock();
        CLIENT.collection(FirestoreBackends.COLLECTION)
                .document("deleted")
                .delete()
                .get();
        rpcs();
        FencedLock again = a.tryLock(config("deleted", Duration.ofMinutes(1))).orElseThrow();
        assertThat(rpcs())
                .as("the update on our release fails (NOT_FOUND), the read finds nothing, create")
                .containsExactly("Commit", "BatchGetDocuments", "Commit");
        assertThat(again.fencingToken()).as("a new document starts over").isEqualTo(1);
        again.unlock();
    }

    @Test
    void acquiringFromOurOwnReleaseJudgesItByFirestoresClockNotTheClients() throws InterruptedException {
        CloudLockProvider a = provider("a");
        LockConfiguration atLeast = new LockConfiguration(
                ClockProvider.now(), "own-release-skew", Duration.ofSeconds(10), Duration.ofMillis(500));
        a.tryLock(atLeast).orElseThrow().unlock();
        rpcs();
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30)));
        assertThat(a.tryLock(config("own-release-skew", Duration.ofSeconds(10))))
                .as("by the client's clock lockAtLeastFor ended 29.5 s ago; by Firestore's it runs 0.5 s more")
                .isEmpty();
        assertThat(rpcs())
                .as("held by Firestore's clock: not written from memory, read")
                .containsExactly("BatchGetDocuments");
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-30)));
        Thread.sleep(700);
        Instant before = Instant.now();
        FencedLock taken = a.tryLock(config("own-release-skew", Duration.ofSeconds(10)))
                .orElseThrow(() -> new AssertionError("lockAtLeastFor ended 200 ms ago by Firestore's clock"));
        assertThat(rpcs())
                .as("free by Firestore's clock, 30 s before by the client's: one update from memory")
                .containsExactly("Commit");
        assertThat(record("own-release-skew").lockedAt())
                .as("lockedAt on Firestore's time, not the client's")
                .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
        taken.unlock();
    }

    @Test
    void aReleaseThatKeepsLockAtLeastForIsNotTakenEarlyFromMemory() {
        CloudLockProvider a = provider("a");
        FencedLock held = a.tryLock(new LockConfiguration(
                        ClockProvider.now(), "at-least", Duration.ofMinutes(1), Duration.ofSeconds(30)))
                .orElseThrow();
        held.unlock();
        rpcs();
        assertThat(a.tryLock(config("at-least", Duration.ofMinutes(1))))
                .as("lockAtLeastFor runs 30 s more: our own release is held, not trusted without a read")
                .isEmpty();
        assertThat(rpcs()).as("one read, no write").containsExactly("BatchGetDocuments");
    }

    @Test
    void writesFirestoreTimestampsAndOurFields() throws Exception {
        FencedLock lock =
                provider("me").tryLock(config("layout", Duration.ofSeconds(30))).orElseThrow();
        Map<String, Object> fields = raw("layout").getData();
        assertThat(fields).containsOnlyKeys("lockUntil", "lockedAt", "lockedBy", "owner", "fence");
        assertThat(fields.get("lockUntil")).isInstanceOf(Timestamp.class);
        assertThat(fields.get("lockedAt")).isInstanceOf(Timestamp.class);
        assertThat(fields.get("lockedBy")).isEqualTo("me");
        assertThat(fields.get("owner")).asString().isNotBlank();
        assertThat(fields.get("fence")).isEqualTo(lock.fencingToken()).isEqualTo(1L);
        Timestamp lockedAt = (Timestamp) fields.get("lockedAt");
        assertThat(((Timestamp) fields.get("lockUntil")).getSeconds()).isEqualTo(lockedAt.getSeconds() + 30);
        lock.unlock();
        assertThat(provider("me")
                        .tryLock(config("layout", Duration.ofSeconds(30)))
                        .orElseThrow()
                        .fencingToken())
                .isEqualTo(2);
    }

    @Test
    void takesOverARecordWrittenByAnotherToolOnlyWhenItsLeaseRanOut() throws Exception {
        Instant now = Instant.now();
        CLIENT.collection(FirestoreBackends.COLLECTION)
                .document("foreign-held")
                .set(Map.of("lockUntil", Timestamp.ofTimeSecondsAndNanos(now.getEpochSecond() + 60, 0)))
                .get();
        CLIENT.collection(FirestoreBackends.COLLECTION)
                .document("foreign-free")
                .set(Map.of("lockUntil", Timestamp.ofTimeSecondsAndNanos(now.getEpochSecond() - 1, 0)))
                .get();
        assertThat(provider("me").lock(config("foreign-held", Duration.ofSeconds(30))))
                .isEmpty();
        FencedLock taken = provider("me")
                .tryLock(config("foreign-free", Duration.ofSeconds(30)))
                .orElseThrow();
        assertThat(taken.fencingToken()).isEqualTo(1);
        taken.unlock();
    }

    @Test
    void aDocumentWithFieldsOfTheWrongTypeIsAClearError() throws Exception {
        CLIENT.collection(FirestoreBackends.COLLECTION)
                .document("strings")
                .set(Map.of("lockUntil", "2026-11-30T10:00:00.000Z"))
                .get();
        assertThatThrownBy(() -> provider("me").lock(config("strings", Duration.ofMinutes(1))))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("wrong type")
                .hasMessageContaining("'strings'")
                .as("neither a setup nor an availability problem: a record that is no lock record")
                .isExactlyInstanceOf(dev.cloudlock.spi.NotALockRecordException.class);
    }

    @Test
    void namesFirestoreForbidsAsIdsAreEscapedIntoSeparateDocuments() throws Exception {
        List<String> names = List.of(".", "..", "__reserved__", "a/b", "a%2Fb", "%", "_", "__", "€".repeat(255));
        List<SimpleLock> locks = new ArrayList<>();
        for (String name : names) {
            locks.add(provider("me")
                    .lock(config(name, Duration.ofMinutes(1)))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided or was refused")));
        }
        List<String> ids = StreamSupport.stream(
                        CLIENT.collection(FirestoreBackends.COLLECTION)
                                .listDocuments()
                                .spliterator(),
                        false)
                .map(DocumentReference::getId)
                .sorted()
                .collect(Collectors.toList());
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        names.stream().map(FirestoreDocumentIds::encode).collect(Collectors.toList()));
        for (String name : names) {
            assertThat(provider("other").lock(config(name, Duration.ofMinutes(1))))
                    .as("'%s' while held", name)
                    .isEmpty();
        }
        locks.forEach(SimpleLock::unlock);
        assertThatThrownBy(() -> provider("me").lock(config("half-\uD83D", Duration.ofMinutes(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
    }

    @Test
    void anUnreachableFirestoreIsAFastClearError() {
        CloudLockProvider down = FirestoreLockProvider.builder()
                .firestore(FirestoreBackends.deadClient())
                .build();
        long start = System.nanoTime();
        assertThatThrownBy(() -> down.lock(config("down", Duration.ofMinutes(1))))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("UNAVAILABLE")
                .hasMessageContaining("could not be reached")
                .hasMessageContaining("127.0.0.1:")
                .hasMessageContaining("'down'")
                .hasMessageContaining("collection 'shedlock'")
                .isInstanceOf(LockStoreUnavailableException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("[FirestoreLockStoreTest] unreachable Firestore reported in %d ms%n", took.toMillis());
        assertThat(took).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aRequestTheSecurityRulesRefuseIsAPermissionError() throws Exception {
        loadRules("allow read, write: if false;");
        // No credentials: the emulator applies the rules (the usual emulator client is an owner and bypasses them).
        Firestore anonymous = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setHost("127.0.0.1:" + Emulators.firestore().port())
                .setCredentials(NoCredentials.getInstance())
                .build()
                .getService();
        try {
            CloudLockProvider refused =
                    FirestoreLockProvider.builder().firestore(anonymous).build();
            assertThatThrownBy(() -> refused.lock(config("guarded", Duration.ofMinutes(1))))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("PERMISSION_DENIED")
                    .hasMessageContaining("roles/datastore.user")
                    .isInstanceOf(LockStoreConfigurationException.class)
                    .satisfies(e -> System.out.println("[FirestoreLockStoreTest] " + e.getMessage()));
        } finally {
            anonymous.close();
            loadRules("allow read, write: if true;");
        }
    }

    /** Replaces the emulator's security rules with one rule for every document. */
    private static void loadRules(String rule) throws Exception {
        String rules = "rules_version = '2'; service cloud.firestore { match /databases/{database}/documents {"
                + " match /{document=**} { " + rule + " } } }";
        HttpResponse<String> loaded = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(Emulators.firestore().endpoint() + "/emulator/v1/projects/"
                                        + Emulators.FIRESTORE_PROJECT + ":securityRules"))
                                .PUT(HttpRequest.BodyPublishers.ofString(
                                        "{\"rules\":{\"files\":[{\"content\":\"" + rules + "\"}]}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    }

    @Test
    void builderAndConfigurationErrorsNameTheProblem() {
        assertThatThrownBy(() -> FirestoreLockProvider.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("firestore");
        assertThatThrownBy(() -> FirestoreLockProvider.builder()
                        .firestore(CLIENT)
                        .collection("locks/sub")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("collection");
        assertThatThrownBy(() -> FirestoreLockProvider.builder()
                        .firestore(CLIENT)
                        .collection(" ")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("collection");
        assertThat(FirestoreLockProvider.builder().firestore(CLIENT).build().store())
                .isInstanceOfSatisfying(
                        FirestoreLockStore.class,
                        s -> assertThat(s.collection()).isEqualTo("shedlock"));
    }

    private static LockRecord record(String name) {
        return provider("reader").store().read(name).orElseThrow();
    }

    private static DocumentSnapshot raw(String id) throws ExecutionException, InterruptedException {
        return CLIENT.collection(FirestoreBackends.COLLECTION)
                .document(id)
                .get()
                .get();
    }

    /** The RPCs sent since the last call. */
    private static List<String> rpcs() {
        synchronized (RPCS) {
            List<String> sent = new ArrayList<>(RPCS);
            RPCS.clear();
            return sent;
        }
    }
}
