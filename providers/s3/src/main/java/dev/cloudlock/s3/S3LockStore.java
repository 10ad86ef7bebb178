package dev.cloudlock.s3;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ETagLockStore;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordJson;
import dev.cloudlock.spi.NotALockRecordException;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.spi.StoreErrors;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.spi.StoreState;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A {@link dev.cloudlock.spi.LockStore} on S3 conditional writes: one object per lock, {@code <prefix><encoded name>}
 * in one bucket. Acquire, release and extend are each a {@code PutObject} conditioned on the object's ETag
 * ({@code If-Match}) or its absence ({@code If-None-Match: *}); S3 applies them atomically per key. 412
 * PreconditionFailed and 409 ConditionalRequestConflict mean "lost the race"; every other failure is a
 * {@link LockStoreException} that says what is wrong: a {@link LockStoreConfigurationException} for a missing bucket, a
 * bucket in another region, access denied or an endpoint without conditional writes (fix the setup), a
 * {@link LockStoreUnavailableException} for an unreachable endpoint, a timeout, 503 SlowDown or another 5xx (retry
 * later), the base type for the rest (such as an object under the prefix that is not a lock record).
 *
 * <p><b>State in a small JSON body, not in metadata.</b> The ETag of a single-part PUT is derived from the body
 * (its MD5 unless SSE-KMS is used), not from user metadata. With the state in metadata over an empty body, every
 * version of the object would carry the same ETag and {@code If-Match} could not tell a stale state from the
 * current one. With the state in the body, the ETag identifies the state: the owner token (random per acquisition)
 * and the fence (+1 per acquisition) make every acquisition's body unique, so "the ETag still matches" means
 * "nobody has written since the state we know". One {@code GetObject} returns state and ETag together, the body
 * can hold any Unicode in {@code lockedBy} (metadata is ASCII), and people can read it in the console
 * (docs/stores/s3.md shows the layout). Keys are percent-encoded: no name escapes the prefix, no two
 * names share a key.
 *
 * <p><b>Round trips</b> ({@link ETagLockStore}): one {@code PutObject} per steady-state acquire, release and extend;
 * a {@code GetObject} first after another holder.
 *
 * <p>Conditions compare the client's clock with {@code lockUntil}; the {@code Date} header of every response feeds a
 * {@link ClockSkewMonitor}. Thread-safe.
 */
public final class S3LockStore extends ETagLockStore {

    private static final String JSON = "application/json";

    private final S3Client client;
    private final String bucket;
    private final String prefix;
    private final ClockSkewMonitor clockSkew;

    /**
     * @param client the S3 client (its region, credentials and HTTP client are the caller's choice)
     * @param bucket the bucket holding the lock objects; it must exist
     * @param prefix put before every encoded lock name, e.g. {@code shedlock/}; may be empty
     * @param clockSkew fed with the {@code Date} header of every response; warns when S3's clock and ours certainly
     *     differ by more than its tolerance
     * @param timeouts the deadline of every request (total and per attempt), set on each request so it bounds any
     *     client; capped at the lease each request protects
     */
    S3LockStore(S3Client client, String bucket, String prefix, ClockSkewMonitor clockSkew, CallTimeouts timeouts) {
        super(timeouts);
        this.client = Objects.requireNonNull(client, "client");
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("bucket must not be blank");
        }
        this.bucket = bucket;
        this.prefix = S3Keys.checkPrefix(prefix);
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    @Override
    protected Optional<LockRecord> readObject(String name, CallTimeouts deadline) {
        String key = key(name);
        try {
            ResponseBytes<GetObjectResponse> object = call(
                    () -> client.getObjectAsBytes(b -> b.bucket(bucket)
                            .key(key)
                            .overrideConfiguration(o ->
                                    o.apiCallTimeout(deadline.total()).apiCallAttemptTimeout(deadline.perAttempt()))),
                    bytes -> bytes.response().sdkHttpResponse(),
                    S3LockStore::isMissingKey,
                    "read",
                    name,
                    key,
                    deadline);
            try {
                String etag = object.response().eTag();
                return Optional.of(LockRecordJson.read(
                        name, object.asByteArray(), etag == null ? null : new StoreState.ETag(etag)));
            } catch (IllegalArgumentException notOurs) {
                throw new NotALockRecordException(
                        "S3 object s3://" + bucket + "/" + key + " (lock '" + name + "') is not"
                                + " a cloudlock lock record: " + notOurs.getMessage()
                                + ". Another tool writes under the"
                                + " prefix '" + prefix + "'? Give cloudlock a prefix of its own.",
                        notOurs);
            }
        } catch (S3Exception missing) {
            return Optional.empty();
        }
    }

    /**
     * One {@code ListObjectsV2} page of the keys under the prefix followed by {@code relative} (the job records, the
     * {@code occurrences/}, or one job's occurrence records), with {@code /} as delimiter: lock keys never contain one
     * after it; the page token is S3's continuation token. {@link ETagLockStore} then reads each lock object, since its
     * state is in its body: 1 + n requests for a page of n.
     */
    @Override
    protected KeyPage listKeysUnder(
            String relative, @Nullable String continuation, int pageSize, CallTimeouts deadline) {
        String under = prefix + relative;
        ListObjectsV2Response listing = call(
                () -> client.listObjectsV2(b -> b.bucket(bucket)
                        .prefix(under)
                        .delimiter("/")
                        .maxKeys(pageSize)
                        .continuationToken(continuation)
                        .overrideConfiguration(
                                o -> o.apiCallTimeout(deadline.total()).apiCallAttemptTimeout(deadline.perAttempt()))),
                ListObjectsV2Response::sdkHttpResponse,
                e -> false,
                "list",
                "",
                under + "*",
                deadline);
        List<String> keys = listing.contents().stream()
                .map(object -> object.key().substring(prefix.length()))
                .toList();
        return new KeyPage(keys, Boolean.TRUE.equals(listing.isTruncated()) ? listing.nextContinuationToken() : null);
    }

    @Override
    protected String encodeName(String name) {
        return ObjectKeys.encode(name);
    }

    /**
     * Checks that the bucket exists and answers ({@code HeadBucket}). cloudlock does not create buckets: a bucket's
     * region, policy, encryption and lifecycle are the owner's choice.
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts().forRead();
        try {
            call(
                    () -> client.headBucket(b -> b.bucket(bucket)
                            .overrideConfiguration(o ->
                                    o.apiCallTimeout(deadline.total()).apiCallAttemptTimeout(deadline.perAttempt()))),
                    HeadBucketResponse::sdkHttpResponse,
                    e -> e.statusCode() == 404,
                    "setup",
                    "",
                    "",
                    deadline);
        } catch (S3Exception missing) {
            throw new LockStoreConfigurationException(
                    "S3 bucket '" + bucket + "' does not exist (or is in another"
                            + " account or partition). cloudlock does not create buckets: create it (for example"
                            + " `aws s3 mb s3://" + bucket + "` or the Terraform module), or fix the configured bucket",
                    missing);
        }
        return new StoreSetup(
                false,
                "Bucket '" + bucket + "' exists; lock objects go under the prefix '" + prefix + "'. " + lifecycle());
    }

    /**
     * What init cannot do: a bucket's lifecycle configuration is the owner's (a put replaces every rule), so the
     * rule that expires occurrence records is printed, not set.
     */
    private String lifecycle() {
        return "Occurrence records go under '" + prefix + ObjectKeys.OCCURRENCE_PREFIX + "' and expire only by a"
                + " lifecycle rule on that prefix, which init does not set (a bucket's lifecycle configuration is its"
                + " owner's): add a rule with Filter.Prefix '" + prefix + ObjectKeys.OCCURRENCE_PREFIX + "' and"
                + " Expiration.Days = the retention in days + 1 (8 for the default 7 days), or use the"
                + " aws-s3-lock-bucket Terraform module";
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /** Rejects names whose key would be too long (more than 1,024 bytes with the prefix). */
    @Override
    public void checkName(String name) {
        key(name);
    }

    /** The object key of lock {@code name}. */
    public String key(String name) {
        return S3Keys.key(prefix, name);
    }

    @Override
    protected Optional<String> writeObject(
            LockRecord next, @Nullable String ifMatch, String operation, CallTimeouts deadline) {
        String key = key(next.name());
        PutObjectRequest.Builder put = PutObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .contentType(JSON)
                .overrideConfiguration(
                        o -> o.apiCallTimeout(deadline.total()).apiCallAttemptTimeout(deadline.perAttempt()));
        if (ifMatch == null) {
            put.ifNoneMatch("*");
        } else {
            put.ifMatch(ifMatch);
        }
        byte[] body = LockRecordJson.write(next);
        try {
            PutObjectResponse response = call(
                    () -> client.putObject(put.build(), RequestBody.fromBytes(body)),
                    PutObjectResponse::sdkHttpResponse,
                    S3LockStore::isLostRace,
                    operation,
                    next.name(),
                    key,
                    deadline);
            return Optional.of(requireEtag(response.eTag(), key));
        } catch (S3Exception lost) {
            return Optional.empty();
        }
    }

    /** A missing ETag would turn the next conditional write into an unconditional one: refuse to go on. */
    private String requireEtag(@Nullable String etag, String key) {
        if (etag == null || etag.isBlank()) {
            throw new LockStoreException("S3 returned no ETag for s3://" + bucket + "/" + key + "; the lock's"
                    + " conditional writes need one. Is this endpoint S3-compatible?");
        }
        return etag;
    }

    /** 412: the ETag no longer matches, or the object exists. 409: a concurrent conditional write won. */
    private static boolean isLostRace(S3Exception e) {
        return e.statusCode() == 412 || (e.statusCode() == 409 && "ConditionalRequestConflict".equals(code(e)));
    }

    private static boolean isMissingKey(S3Exception e) {
        return e instanceof NoSuchKeyException || "NoSuchKey".equals(code(e));
    }

    /**
     * Runs one S3 call and feeds its {@code Date} header to the skew monitor. An {@link S3Exception} accepted by
     * {@code expected} is rethrown as it is (the caller turns it into a result); every other failure becomes a
     * {@link LockStoreException} that names the problem.
     */
    private <T> T call(
            Supplier<T> request,
            Function<T, SdkHttpResponse> http,
            Predicate<S3Exception> expected,
            String operation,
            String name,
            String key,
            CallTimeouts deadline) {
        long sent = clockSkew.nanoTime();
        try {
            T response = request.get();
            observeDate(http.apply(response), sent);
            return response;
        } catch (S3Exception e) {
            if (e.awsErrorDetails() != null) {
                observeDate(e.awsErrorDetails().sdkHttpResponse(), sent);
            }
            if (expected.test(e)) {
                throw e;
            }
            throw translate(e, operation, name, key);
        } catch (SdkClientException e) {
            if (StoreErrors.isTimeout(e)) {
                throw deadline.timedOut("S3", operation, name, "S3LockProvider.builder()", e);
            }
            String what = "S3 " + operation + " of lock '" + name + "' (s3://" + bucket + "/" + key + ")";
            throw StoreErrors.ofMissingCredentials(what, e)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "S3 could not be reached for " + operation + " of lock '" + name + "' (s3://" + bucket + "/"
                                    + key + "): " + e.getMessage(),
                            e));
        } catch (SdkException e) {
            throw new LockStoreException(
                    "S3 " + operation + " of lock '" + name + "' (s3://" + bucket + "/" + key + ") failed: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The store error for S3's answer {@code e}. What only S3 says is decided here: a missing bucket and a bucket
     * in another region are a {@link LockStoreConfigurationException}. Every other answer goes by its HTTP status
     * ({@link StoreErrors#ofHttpStatus}): 403 access denied and 501 (no conditional writes) are configuration
     * errors, 503 SlowDown and the other 5xx are a {@link LockStoreUnavailableException}, the rest plain.
     */
    LockStoreException translate(S3Exception e, String operation, String name, String key) {
        String what = (name.isEmpty() ? operation : operation + " of lock '" + name + "'") + " (s3://" + bucket + "/"
                + key + ")";
        String code = code(e);
        if (e instanceof NoSuchBucketException || "NoSuchBucket".equals(code)) {
            return new LockStoreConfigurationException(
                    "S3 bucket '" + bucket + "' does not exist (or is in another"
                            + " account or partition). Create it, or fix the configured bucket. Operation: " + what,
                    e);
        }
        if (e.statusCode() == 301 || "PermanentRedirect".equals(code) || "AuthorizationHeaderMalformed".equals(code)) {
            return new LockStoreConfigurationException(
                    "S3 bucket '" + bucket + "' is in another region than the"
                            + " client's; configure the client with the bucket's region. Operation: " + what + ". "
                            + e.getMessage(),
                    e);
        }
        return StoreErrors.ofHttpStatus(e.statusCode(), problem(e, code, what), e);
    }

    private String problem(S3Exception e, @Nullable String code, String what) {
        if (e.statusCode() == 403) {
            return "S3 denied " + what + " (" + code + "). The credentials need s3:GetObject and s3:PutObject on"
                    + " arn:aws:s3:::" + bucket + "/" + prefix + "*, and s3:ListBucket on arn:aws:s3:::" + bucket
                    + " so that a lock object that does not exist yet reads as 404 rather than 403. "
                    + e.getMessage();
        }
        if (e.statusCode() == 501) {
            return "This S3 endpoint does not implement conditional writes (If-Match / If-None-Match on PutObject),"
                    + " which the lock needs. Operation: " + what + ". " + e.getMessage();
        }
        return "S3 " + what + " failed with HTTP " + e.statusCode() + " " + code + ": " + e.getMessage();
    }

    private static @Nullable String code(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }

    private void observeDate(@Nullable SdkHttpResponse http, long sent) {
        if (http != null) {
            clockSkew.observeHttpDate(http.firstMatchingHeader("Date").orElse(null), sent, clockSkew.nanoTime());
        }
    }
}
