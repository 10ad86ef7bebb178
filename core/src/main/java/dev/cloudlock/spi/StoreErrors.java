package dev.cloudlock.spi;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The rules that decide which kind of {@link LockStoreException} a store failure is, written once for every store
 * that meets them: the meaning of an HTTP status, and of a call that got no answer at all. A store keeps its own
 * rules only for what its SDK alone says (an error code, a gRPC status, a sub-status) and asks here for the rest,
 * so two stores never classify the same answer differently.
 *
 * <p>Every method returns (never throws) the exception, carrying the caller's message and cause unchanged: the store
 * writes the message that names the fix, this class only picks its type.
 */
public final class StoreErrors {

    private static final int MAX_CAUSES = 32;

    private StoreErrors() {}

    /**
     * The exception for an answer with HTTP status {@code status}:
     * <ul>
     *   <li>401 (no valid credentials), 403 (access denied) and 501 (the server does not implement the request, so
     *       the same request gets the same answer) are a {@link LockStoreConfigurationException};</li>
     *   <li>408 (request timeout), 429 (throttled; the SDKs have already retried) and every other 5xx are a
     *       {@link LockStoreUnavailableException};</li>
     *   <li>any other status is a plain {@link LockStoreException}: the store knows better what its 400, 404 or 409
     *       means, and must decide those before it asks here.</li>
     * </ul>
     */
    public static LockStoreException ofHttpStatus(int status, String message, @Nullable Throwable cause) {
        if (status == 401 || status == 403 || status == 501) {
            return new LockStoreConfigurationException(message, cause);
        }
        if (status == 408 || status == 429 || (status >= 500 && status <= 599)) {
            return new LockStoreUnavailableException(message, cause);
        }
        return new LockStoreException(message, cause);
    }

    /**
     * The exception for a call that got no answer from the store: a {@link LockStoreUnavailableException} when the
     * network failed or the call timed out (an {@link IOException}, an {@link UncheckedIOException} or a
     * {@link TimeoutException} in {@code failure}'s cause chain, or an SDK type whose name ends in
     * {@code TimeoutException}, as the AWS SDK's call timeouts do, which share no common supertype), otherwise a
     * plain {@link LockStoreException}: a client that cannot even start the call (no credentials found, an
     * interrupted thread) is not helped by retrying later.
     */
    public static LockStoreException ofNoAnswer(String message, Throwable failure) {
        return isNetworkFailure(failure)
                ? new LockStoreUnavailableException(message, failure)
                : new LockStoreException(message, failure);
    }

    private static boolean isNetworkFailure(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
            if (t instanceof IOException || t instanceof UncheckedIOException || isTimeoutType(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code failure} is a call that ran out of time: a {@link TimeoutException} in its cause chain, or an SDK
     * type whose name ends in {@code TimeoutException} (the AWS SDK's {@code ApiCallTimeoutException} and
     * {@code ApiCallAttemptTimeoutException}, a socket's {@code SocketTimeoutException}). A store reports such a
     * failure with {@link CallTimeouts#timedOut}, which names the deadline and how to change it.
     */
    public static boolean isTimeout(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
            if (isTimeoutType(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The exception for a call the client never sent because it found no credentials: a
     * {@link LockStoreConfigurationException} saying so, with the SDK's own account of where it looked (its message
     * lists the providers of its credentials chain and what each needs), or empty when {@code failure} is something
     * else. Recognised by what the SDKs throw: an AWS {@code SdkClientException} "Unable to load credentials", an Azure
     * {@code CredentialUnavailableException}, in {@code failure}'s cause chain.
     *
     * @param what the store and the call, as the store words it: {@code "DynamoDB acquire of lock 'nightly'"}
     */
    public static Optional<LockStoreException> ofMissingCredentials(String what, Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++, t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (t.getClass().getSimpleName().equals("CredentialUnavailableException")
                    || message.startsWith("Unable to load credentials")) {
                return Optional.of(new LockStoreConfigurationException(
                        what + " was not sent: the client found no credentials. " + message
                                + " Give the client credentials, or configure one of those sources",
                        failure));
            }
        }
        return Optional.empty();
    }

    private static boolean isTimeoutType(Throwable t) {
        return t instanceof TimeoutException || t.getClass().getSimpleName().endsWith("TimeoutException");
    }
}
