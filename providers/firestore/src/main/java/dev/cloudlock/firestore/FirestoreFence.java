package dev.cloudlock.firestore;

import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.DocumentSnapshot;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.SetOptions;
import com.google.cloud.firestore.Transaction;
import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Fenced writes to a job's own Firestore documents, inside the job's transaction: the document keeps the fencing token
 * of the newest holding that wrote it in one number field ({@value #DEFAULT_FIELD} unless named otherwise); a fenced
 * write reads the document in the transaction, refuses a token older than the field's ({@link FencingTokens#admits}),
 * and writes the data with the field set to the token. Firestore commits the transaction only if the documents it read
 * are unchanged (it retries the function otherwise), so the check and the write are one atomic step. The fence adds
 * one document read to the transaction (none when the job reads the document anyway: {@link #check(DocumentSnapshot,
 * long)}) and one field to the write.
 *
 * <pre>{@code
 * FirestoreFence fence = FirestoreFence.inField();
 * fence.run(db, transaction -> {
 *     fence.set(transaction, reports.document("nightly"), Map.of("body", body), token);
 *     return null;
 * });
 * }</pre>
 *
 * A refusal thrown inside the transaction's function fails it (Firestore does not retry a function's own exception);
 * {@link #run} hands it back as the {@link StaleFencingTokenException} itself rather than Firestore's wrapper.
 */
public final class FirestoreFence {

    /** The fence field's name unless one is given. */
    public static final String DEFAULT_FIELD = "cloudlockFence";

    private final String field;

    private FirestoreFence(String field) {
        if (field.isBlank() || field.contains(".")) {
            throw new IllegalArgumentException("the fence field '" + field + "' must be a top-level field name");
        }
        this.field = field;
    }

    /** Fences kept in the field {@value #DEFAULT_FIELD}. */
    public static FirestoreFence inField() {
        return new FirestoreFence(DEFAULT_FIELD);
    }

    /** Fences kept in the top-level number field {@code field}. */
    public static FirestoreFence inField(String field) {
        return new FirestoreFence(Objects.requireNonNull(field, "field"));
    }

    /** The fence field's name. */
    public String field() {
        return field;
    }

    /**
     * Reads {@code document} in {@code transaction} and refuses {@code token} if it holds a newer one.
     *
     * @return the document as the transaction read it
     * @throws StaleFencingTokenException when the document holds a newer token
     */
    public DocumentSnapshot check(Transaction transaction, DocumentReference document, long token) {
        DocumentSnapshot snapshot;
        try {
            snapshot = transaction.get(document).get();
        } catch (ExecutionException e) {
            throw new LockStoreUnavailableException("reading " + document.getPath() + " for a fenced write failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreUnavailableException("interrupted reading " + document.getPath(), e);
        }
        check(snapshot, token);
        return snapshot;
    }

    /**
     * Refuses {@code token} if {@code snapshot}, read in the transaction that will write, holds a newer one.
     *
     * @throws StaleFencingTokenException when the document holds a newer token
     * @throws NotAFencingTokenException when its fence field holds no token
     */
    public void check(DocumentSnapshot snapshot, long token) {
        FencingTokens.check(resource(snapshot), storedToken(snapshot), token);
    }

    /**
     * In {@code transaction}: reads {@code document}, refuses an older token, and sets it to {@code data} with the
     * fence field set to {@code token} (replacing the document).
     */
    public void set(Transaction transaction, DocumentReference document, Map<String, ?> data, long token) {
        check(transaction, document, token);
        transaction.set(document, withFence(data, token));
    }

    /**
     * In {@code transaction}: reads {@code document}, refuses an older token, and merges {@code fields} into it with
     * the fence field set to {@code token} (creating it when absent).
     */
    public void merge(Transaction transaction, DocumentReference document, Map<String, ?> fields, long token) {
        check(transaction, document, token);
        transaction.set(document, withFence(fields, token), SetOptions.merge());
    }

    /** {@code data} with the fence field set to {@code token}, for a write after {@link #check}. */
    public Map<String, Object> withFence(Map<String, ?> data, long token) {
        Map<String, Object> fenced = new HashMap<>(data);
        Object given = fenced.put(field, token);
        if (given != null && !given.equals(token)) {
            throw new IllegalArgumentException("the data already sets the fence field '" + field + "' to " + given);
        }
        return fenced;
    }

    /**
     * The token {@code snapshot} holds, or null when it is absent or holds none.
     *
     * @throws NotAFencingTokenException when its fence field holds no token (text, a fraction, another type)
     */
    public @Nullable Long storedToken(DocumentSnapshot snapshot) {
        return snapshot.exists() ? FencingTokens.stored(resource(snapshot), snapshot.get(field)) : null;
    }

    private String resource(DocumentSnapshot snapshot) {
        return "Firestore document " + snapshot.getReference().getPath() + ", field '" + field + "'";
    }

    /**
     * Runs {@code function} in a transaction and waits for it; a refusal inside comes out as the {@link
     * StaleFencingTokenException} or {@link NotAFencingTokenException} itself.
     */
    public <T> T run(Firestore firestore, Transaction.Function<T> function) throws InterruptedException {
        try {
            return firestore.runTransaction(function).get();
        } catch (ExecutionException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof StaleFencingTokenException || cause instanceof NotAFencingTokenException) {
                    throw (RuntimeException) cause;
                }
            }
            throw new LockStoreUnavailableException("a fenced Firestore transaction failed: " + e.getCause(), e);
        }
    }
}
