package dev.cloudlock.firestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.gax.tracing.ApiTracer;
import com.google.api.gax.tracing.ApiTracerFactory;
import com.google.api.gax.tracing.BaseApiTracer;
import com.google.api.gax.tracing.SpanName;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Fenced writes in a job's own transaction on the Firestore emulator, the lock taken by two real providers. */
class FirestoreFenceTest extends StaleHolderCases {

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

    private final FirestoreFence fence = FirestoreFence.inField();
    private final DocumentReference report = CLIENT.collection("reports").document("nightly");

    private final StaleHolderScenario.Sink sink = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) throws InterruptedException {
            fence.run(CLIENT, transaction -> {
                fence.set(transaction, report, Map.of("body", value), token);
                return null;
            });
        }

        @Override
        public void writeUnfenced(String value) throws Exception {
            report.set(Map.of("body", value)).get();
        }

        @Override
        public @Nullable String read() throws Exception {
            DocumentSnapshot snapshot = report.get().get();
            return snapshot.exists() ? snapshot.getString("body") : null;
        }
    };

    @BeforeEach
    void reset() {
        Emulators.resetFirestore();
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return FirestoreLockProvider.builder()
                .firestore(CLIENT)
                .collection(FirestoreBackends.COLLECTION)
                .lockedBy(lockedBy)
                .build();
    }

    @Test
    void aRefusalFailsTheWholeTransactionSoItsOtherWritesDoNotLandEither() throws Exception {
        DocumentReference audit = CLIENT.collection("reports").document("audit");
        sink.write(8, "B");
        assertThatThrownBy(() -> fence.run(CLIENT, transaction -> {
                    fence.set(transaction, report, Map.of("body", "A"), 7);
                    transaction.set(audit, Map.of("by", "A"));
                    return null;
                }))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("Firestore document reports/nightly");
        assertThat(audit.get().get().exists()).isFalse();
        assertThat(sink.read()).isEqualTo("B");
    }

    @Test
    void mergeKeepsTheDocumentsOtherFieldsAndSetsTheFence() throws Exception {
        report.set(Map.of("body", "old", "owner", "reports-team")).get();
        fence.run(CLIENT, transaction -> {
            fence.merge(transaction, report, Map.of("body", "new"), 3);
            return null;
        });
        DocumentSnapshot snapshot = report.get().get();
        assertThat(snapshot.getData()).containsEntry("owner", "reports-team").containsEntry("body", "new");
        assertThat(snapshot.getLong(FirestoreFence.DEFAULT_FIELD)).isEqualTo(3);
    }

    @Test
    void aFencedTransactionIsTheUsersTransactionWithOneDocumentRead() throws Exception {
        sink.write(7, "first");
        synchronized (RPCS) {
            RPCS.clear();
        }
        sink.write(7, "second");
        synchronized (RPCS) {
            assertThat(RPCS)
                    .as("the RPCs of one fenced write")
                    .containsExactly("BeginTransaction", "BatchGetDocuments", "Commit");
        }
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return sink;
    }

    /** Fence fields another tool wrote: a string, a double 9.5, a double beyond the token's range. */
    @Nested
    class HostileFences extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) throws Exception {
            Object value = switch (fence) {
                case TOKEN_5, TOKEN_12 -> Long.valueOf(fence.text());
                case TEXT -> fence.text();
                case FRACTION, BEYOND_RANGE -> Double.valueOf(fence.text());
            };
            report.set(Map.of("body", "planted", FirestoreFence.DEFAULT_FIELD, value))
                    .get();
            return sink;
        }
    }
}
