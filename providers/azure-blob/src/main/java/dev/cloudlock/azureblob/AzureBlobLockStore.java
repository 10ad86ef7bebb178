package dev.cloudlock.azureblob;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobDownloadContentResponse;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.models.DownloadRetryOptions;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
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

/**
 * A {@link dev.cloudlock.spi.LockStore} on Azure Blob Storage conditional writes: one block blob per lock,
 * {@code <prefix><encoded name>} in one container, its state a small JSON body ({@link LockRecordJson}, as the S3
 * store writes). Acquire, release and extend are each a Put Blob conditioned on the blob's ETag ({@code If-Match})
 * or its absence ({@code If-None-Match: *}); Blob Storage applies them atomically per blob, and every write gives the
 * blob a new ETag, so "the ETag still matches" means "nobody has written since the state we know". 412
 * ConditionNotMet and 409 BlobAlreadyExists mean "lost the race"; every other failure is a
 * {@link LockStoreException} that says what is wrong: a {@link LockStoreConfigurationException} for a missing
 * container, rejected credentials, a denied role or a lease someone put on a lock blob (fix the setup), a
 * {@link LockStoreUnavailableException} for an unreachable endpoint, a timeout, 503 ServerBusy or another 5xx (retry
 * later), the base type for the rest (such as a blob under the prefix that is not a lock record).
 *
 * <p><b>Round trips</b> ({@link ETagLockStore}): one Put Blob per steady-state acquire, release and extend; a Get
 * Blob first after another holder. Blob names are percent-encoded ({@link BlobNames}): no name escapes the prefix,
 * no two names share a blob. For operators: {@link #list} is List Blobs plus a Get Blob per lock; {@link #init}
 * finds the container or creates it.
 *
 * <p><b>Deadlines.</b> Every request carries the call's total deadline as the SDK's operation timeout and the
 * per-attempt deadline as its response timeout (azure-core's {@code azure-response-timeout}, which its default Netty
 * HTTP client honours), so they bound a client the application built too.
 *
 * <p>Conditions compare the client's clock with {@code lockUntil}; the {@code Date} header of every response feeds a
 * {@link ClockSkewMonitor}. Thread-safe.
 */
public final class AzureBlobLockStore extends ETagLockStore {

    private static final String JSON = "application/json";
    /** azure-core's per-request response timeout, read by its HTTP clients from the request's context. */
    private static final String RESPONSE_TIMEOUT = "azure-response-timeout";

    private final BlobContainerClient container;
    private final String prefix;
    private final ClockSkewMonitor clockSkew;

    /**
     * @param container the container holding the lock blobs (its account, credentials and HTTP client are the
     *     caller's choice); it must exist
     * @param prefix put before every encoded lock name, e.g. {@code shedlock/}; may be empty
     * @param clockSkew fed with the {@code Date} header of every response
     * @param timeouts the deadline of every request (total and per attempt), capped at the lease each request protects
     */
    AzureBlobLockStore(
            BlobContainerClient container, String prefix, ClockSkewMonitor clockSkew, CallTimeouts timeouts) {
        super(timeouts);
        this.container = Objects.requireNonNull(container, "container");
        this.prefix = BlobNames.checkPrefix(prefix);
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    @Override
    protected Optional<LockRecord> readObject(String name, CallTimeouts deadline) {
        String blob = blobName(name);
        BlobDownloadContentResponse response;
        try {
            response = call(
                    () -> container
                            .getBlobClient(blob)
                            .downloadContentWithResponse(
                                    new DownloadRetryOptions(), null, deadline.total(), context(deadline)),
                    BlobDownloadContentResponse::getHeaders,
                    AzureBlobLockStore::isMissingBlob,
                    "read",
                    name,
                    blob,
                    deadline);
        } catch (BlobStorageException missing) {
            return Optional.empty();
        }
        String etag = response.getDeserializedHeaders().getETag();
        try {
            return Optional.of(LockRecordJson.read(
                    name, response.getValue().toBytes(), etag == null ? null : new StoreState.ETag(etag)));
        } catch (IllegalArgumentException notOurs) {
            throw new NotALockRecordException(
                    "Blob '" + blob + "' in " + container.getBlobContainerUrl() + " (lock '" + name + "') is not a"
                            + " cloudlock lock record: " + notOurs.getMessage() + ". Another tool writes under the"
                            + " prefix '" + prefix + "'? Give cloudlock a prefix of its own.",
                    notOurs);
        }
    }

    @Override
    protected Optional<String> writeObject(
            LockRecord next, @Nullable String ifMatch, String operation, CallTimeouts deadline) {
        String blob = blobName(next.name());
        BlockBlobSimpleUploadOptions upload = new BlockBlobSimpleUploadOptions(
                        BinaryData.fromBytes(LockRecordJson.write(next)))
                .setHeaders(new BlobHttpHeaders().setContentType(JSON))
                .setRequestConditions(
                        ifMatch == null
                                ? new BlobRequestConditions().setIfNoneMatch("*")
                                : new BlobRequestConditions().setIfMatch(ifMatch));
        try {
            Response<BlockBlobItem> response = call(
                    () -> container
                            .getBlobClient(blob)
                            .getBlockBlobClient()
                            .uploadWithResponse(upload, deadline.total(), context(deadline)),
                    Response::getHeaders,
                    AzureBlobLockStore::isLostRace,
                    operation,
                    next.name(),
                    blob,
                    deadline);
            String etag = response.getValue().getETag();
            if (etag == null || etag.isBlank()) {
                throw new LockStoreException("Blob Storage returned no ETag for blob '" + blob + "' in "
                        + container.getBlobContainerUrl() + "; the lock's conditional writes need one");
            }
            return Optional.of(etag);
        } catch (BlobStorageException lost) {
            return Optional.empty();
        }
    }

    /**
     * One List Blobs page of the blobs under the prefix followed by {@code relative} (the job records, the
     * {@code occurrences/}, or one job's occurrence records), with {@code /} as delimiter (lock blob names never
     * contain one after it, so "folders" are left out); the page token is Blob Storage's continuation marker.
     * {@link ETagLockStore} then reads each lock blob, since its state is in its body (the listing's own
     * properties hold no lock state): 1 + n requests for a page of n.
     */
    @Override
    protected KeyPage listKeysUnder(String relative, @Nullable String marker, int pageSize, CallTimeouts deadline) {
        String under = prefix + relative;
        ListBlobsOptions options = new ListBlobsOptions().setPrefix(under).setMaxResultsPerPage(pageSize);
        PagedResponse<BlobItem> page = call(
                () -> {
                    PagedIterable<BlobItem> blobs = container.listBlobsByHierarchy("/", options, deadline.total());
                    return (marker == null ? blobs.iterableByPage(pageSize) : blobs.iterableByPage(marker, pageSize))
                            .iterator()
                            .next();
                },
                PagedResponse::getHeaders,
                e -> false,
                "list",
                "",
                under + "*",
                deadline);
        List<String> keys = page.getValue().stream()
                .filter(blob -> !Boolean.TRUE.equals(blob.isPrefix()))
                .map(blob -> blob.getName().substring(prefix.length()))
                .toList();
        String next = page.getContinuationToken();
        return new KeyPage(keys, next == null || next.isEmpty() ? null : next);
    }

    @Override
    protected String encodeName(String name) {
        return BlobNames.encode(name);
    }

    /**
     * Creates the container when it is absent, else finds it (Get Container Properties, then Create Container only
     * when needed: one request on a ready store). Creating rather than only checking, unlike the S3 store's bucket: a
     * container has no settings cloudlock could choose wrongly (it is private, in the account the client names), so
     * creating it is exactly what an operator would do next. A role scoped to the container itself can read it but
     * not create it; that case fails naming the fix.
     */
    @Override
    public StoreSetup init() {
        CallTimeouts deadline = timeouts().forRead();
        String where = "container '" + container.getBlobContainerName() + "' of storage account '"
                + container.getAccountName() + "'";
        boolean exists = call(
                        () -> container.existsWithResponse(deadline.total(), context(deadline)),
                        Response::getHeaders,
                        e -> false,
                        "setup",
                        "",
                        "",
                        deadline)
                .getValue();
        if (exists) {
            return new StoreSetup(
                    false, "The " + where + " exists; lock blobs go under the prefix '" + prefix + "'. " + lifecycle());
        }
        boolean created;
        try {
            created = call(
                            () -> container.createIfNotExistsWithResponse(null, deadline.total(), context(deadline)),
                            Response::getHeaders,
                            e -> e.getStatusCode() == 403,
                            "setup",
                            "",
                            "",
                            deadline)
                    .getValue();
        } catch (BlobStorageException denied) {
            throw new LockStoreConfigurationException(
                    "Blob Storage denied creating the " + where + " (" + denied.getErrorCode() + "). Create it"
                            + " (az storage container create --account-name " + container.getAccountName() + " --name "
                            + container.getBlobContainerName() + "), or give the identity 'Storage Blob Data"
                            + " Contributor' on the storage account (a role scoped to the container cannot create"
                            + " it)",
                    denied);
        }
        return new StoreSetup(
                created,
                (created ? "Created the " : "The ") + where + (created ? "" : " exists") + "; lock blobs go under the"
                        + " prefix '" + prefix + "'. " + lifecycle());
    }

    /**
     * What init cannot do: lifecycle management is the storage account's one policy, beyond a container's data
     * role, so the rule that deletes occurrence records is printed, not set.
     */
    private String lifecycle() {
        return "Occurrence records go under '" + prefix + ObjectKeys.OCCURRENCE_PREFIX + "' and are deleted only by"
                + " a lifecycle management rule, which init cannot set (it is the storage account's policy): add a"
                + " rule with prefixMatch '" + container.getBlobContainerName() + "/" + prefix
                + ObjectKeys.OCCURRENCE_PREFIX + "' and baseBlob.delete.daysAfterModificationGreaterThan = the"
                + " retention in days + 1 (8 for the default 7 days); the azure-timer-function Terraform module sets"
                + " one with blob_lock_container";
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.of(clockSkew);
    }

    /** Rejects names whose blob name would be too long (more than 1,024 characters with the prefix). */
    @Override
    public void checkName(String name) {
        blobName(name);
    }

    /** The blob name of lock {@code name}. */
    public String blobName(String name) {
        return BlobNames.blobName(prefix, name);
    }

    private static Context context(CallTimeouts deadline) {
        return new Context(RESPONSE_TIMEOUT, deadline.perAttempt());
    }

    /** 404 BlobNotFound; a 404 about the container (ContainerNotFound) is an error. */
    private static boolean isMissingBlob(BlobStorageException e) {
        return e.getStatusCode() == 404 && BlobErrorCode.BLOB_NOT_FOUND.equals(e.getErrorCode());
    }

    /**
     * 412 ConditionNotMet: the ETag no longer matches. 409 BlobAlreadyExists: {@code If-None-Match: *} met a blob. (A
     * 412 about a lease is not a lost race: see {@link #translate}.)
     */
    private static boolean isLostRace(BlobStorageException e) {
        return (e.getStatusCode() == 412 && BlobErrorCode.CONDITION_NOT_MET.equals(e.getErrorCode()))
                || (e.getStatusCode() == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode()));
    }

    /**
     * Runs one Blob Storage call and feeds its {@code Date} header to the skew monitor. A
     * {@link BlobStorageException} accepted by {@code expected} is rethrown as it is (the caller turns it into a
     * result); every other failure becomes a {@link LockStoreException} that names the problem.
     */
    private <T> T call(
            Supplier<T> request,
            Function<T, HttpHeaders> headers,
            Predicate<BlobStorageException> expected,
            String operation,
            String name,
            String blob,
            CallTimeouts deadline) {
        long sent = clockSkew.nanoTime();
        try {
            T response = request.get();
            observeDate(headers.apply(response), sent);
            return response;
        } catch (BlobStorageException e) {
            if (e.getResponse() != null) {
                observeDate(e.getResponse().getHeaders(), sent);
            }
            if (expected.test(e)) {
                throw e;
            }
            throw translate(e, operation, name, blob);
        } catch (LockStoreException e) {
            throw e;
        } catch (RuntimeException e) {
            if (StoreErrors.isTimeout(e)) {
                throw deadline.timedOut("Blob Storage", operation, name, "AzureBlobLockProvider.builder()", e);
            }
            throw StoreErrors.ofMissingCredentials("Blob Storage " + describe(operation, name, blob), e)
                    .orElseGet(() -> StoreErrors.ofNoAnswer(
                            "Blob Storage could not be reached for " + describe(operation, name, blob) + ": "
                                    + e.getMessage(),
                            e));
        }
    }

    /**
     * The store error for Blob Storage's answer {@code e}. What only Blob Storage says is decided here: a missing
     * container and a lease on a lock blob are a {@link LockStoreConfigurationException}. Every other answer goes by
     * its HTTP status ({@link StoreErrors#ofHttpStatus}): 401 and 403 (rejected credentials, a missing role) are
     * configuration errors, 503 ServerBusy and the other 5xx are a {@link LockStoreUnavailableException}, the rest
     * plain.
     */
    LockStoreException translate(BlobStorageException e, String operation, String name, String blob) {
        String what = describe(operation, name, blob);
        BlobErrorCode code = e.getErrorCode();
        if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)) {
            return new LockStoreConfigurationException(
                    "Blob container '" + container.getBlobContainerName() + "' does not exist in storage account '"
                            + container.getAccountName() + "'. Create it (az storage container create --account-name "
                            + container.getAccountName() + " --name " + container.getBlobContainerName()
                            + "), or fix the configured container. Operation: " + what,
                    e);
        }
        if ((e.getStatusCode() == 412 || e.getStatusCode() == 409) && isAboutALease(code)) {
            return new LockStoreConfigurationException(
                    "A lease on the lock blob blocks cloudlock's writes (" + code + "): another tool leased it. Break"
                            + " the lease (az storage blob lease break) and give cloudlock a prefix of its own."
                            + " Operation: " + what,
                    e);
        }
        return StoreErrors.ofHttpStatus(e.getStatusCode(), problem(e, code, what), e);
    }

    /** {@code acquire of lock 'x' (blob 'shedlock/x' in <container URL>)}, or {@code list (<container URL>)}. */
    private String describe(String operation, String name, String blob) {
        return (name.isEmpty() ? operation : operation + " of lock '" + name + "'")
                + (blob.isEmpty() ? " (" : " (blob '" + blob + "' in ") + container.getBlobContainerUrl() + ")";
    }

    private String problem(BlobStorageException e, @Nullable BlobErrorCode code, String what) {
        if (e.getStatusCode() == 401
                || BlobErrorCode.AUTHENTICATION_FAILED.equals(code)
                || BlobErrorCode.INVALID_AUTHENTICATION_INFO.equals(code)
                || BlobErrorCode.NO_AUTHENTICATION_INFORMATION.equals(code)) {
            return "Blob Storage rejected the credentials for " + what + " (" + code + "): check the account key or"
                    + " connection string, that a SAS token has not expired, and that this machine's clock is right"
                    + " (requests are signed with the time). " + e.getServiceMessage();
        }
        if (BlobErrorCode.AUTHORIZATION_FAILURE.equals(code)) {
            return "Blob Storage refused " + what + " (AuthorizationFailure): check the account key, connection"
                    + " string or SAS (Azurite answers this to a wrong key), the storage account's network rules, and"
                    + " that the identity has the role 'Storage Blob Data Contributor' on container '"
                    + container.getBlobContainerName() + "'. " + e.getServiceMessage();
        }
        if (e.getStatusCode() == 403) {
            return "Blob Storage denied " + what + " (" + code + "). The identity needs the role 'Storage Blob Data"
                    + " Contributor' on container '" + container.getBlobContainerName() + "' (or a SAS with read,"
                    + " create and write permissions on it). " + e.getServiceMessage();
        }
        return "Blob Storage " + what + " failed with HTTP " + e.getStatusCode() + " " + code + ": "
                + e.getServiceMessage();
    }

    private static boolean isAboutALease(@Nullable BlobErrorCode code) {
        return code != null && code.toString().startsWith("Lease");
    }

    private void observeDate(@Nullable HttpHeaders headers, long sent) {
        if (headers != null) {
            clockSkew.observeHttpDate(headers.getValue(HttpHeaderName.DATE), sent, clockSkew.nanoTime());
        }
    }
}
