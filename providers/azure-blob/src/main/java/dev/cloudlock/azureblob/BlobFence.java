package dev.cloudlock.azureblob;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Fenced writes to a job's own blobs: the blob keeps the fencing token of the newest holding that wrote it in its
 * metadata ({@value #DEFAULT_METADATA_KEY} unless named otherwise), and a fenced upload reads it first (Get Blob
 * Properties), refuses a token older than it ({@link FencingTokens#admits}), and uploads conditioned on the ETag it
 * read ({@code If-Match}; {@code If-None-Match: *} when the blob is absent). A write that lost a race (412
 * ConditionNotMet, 409 BlobAlreadyExists) reads again. Two requests per write; a refusal costs one and writes nothing.
 * Blob Storage gives every write a new ETag, whatever its content, so an unchanged ETag means nobody wrote since the
 * read.
 *
 * <p>The upload's own metadata is kept; its own request conditions are refused (the fence needs them). The data is
 * sent again after a lost race, so it must be replayable ({@code BinaryData.fromBytes}, {@code fromString}).
 */
public final class BlobFence {

    /** The metadata key of the fence unless one is given (a metadata name must be a C# identifier). */
    public static final String DEFAULT_METADATA_KEY = "cloudlockfence";

    private final String metadataKey;

    private BlobFence(String metadataKey) {
        if (!metadataKey.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("the fence's metadata key '" + metadataKey
                    + "' must be a lower-case identifier (letters, digits, _)");
        }
        this.metadataKey = metadataKey;
    }

    /** Fences kept under the metadata key {@value #DEFAULT_METADATA_KEY}. */
    public static BlobFence inMetadata() {
        return new BlobFence(DEFAULT_METADATA_KEY);
    }

    /** Fences kept under the metadata key {@code metadataKey}. */
    public static BlobFence inMetadata(String metadataKey) {
        return new BlobFence(Objects.requireNonNull(metadataKey, "metadataKey"));
    }

    /**
     * Uploads {@code data} to {@code blob} fenced by {@code token}, replacing the blob.
     *
     * @throws StaleFencingTokenException when the blob holds a newer token (nothing written)
     */
    public BlockBlobItem upload(BlobClient blob, BinaryData data, long token) {
        return upload(blob, new BlobParallelUploadOptions(data), token);
    }

    /**
     * Uploads as {@code options} says (its headers, metadata, tier...) to {@code blob}, fenced by {@code token}.
     *
     * @throws StaleFencingTokenException when the blob holds a newer token (nothing written)
     */
    public BlockBlobItem upload(BlobClient blob, BlobParallelUploadOptions options, long token) {
        if (options.getRequestConditions() != null) {
            throw new IllegalArgumentException(
                    "a fenced upload is conditioned by the fence; these options have request conditions of their own");
        }
        Map<String, String> metadata = new HashMap<>(options.getMetadata() == null ? Map.of() : options.getMetadata());
        String given = metadata.put(metadataKey, Long.toString(token));
        if (given != null && !given.equals(Long.toString(token))) {
            throw new IllegalArgumentException(
                    "the upload's metadata already sets the fence '" + metadataKey + "' to " + given);
        }
        options.setMetadata(metadata);
        return FencingTokens.writeOnVersion(resource(blob), token, () -> read(blob), etag -> {
            options.setRequestConditions(
                    etag == null
                            ? new BlobRequestConditions().setIfNoneMatch("*")
                            : new BlobRequestConditions().setIfMatch(etag));
            try {
                return blob.uploadWithResponse(options, null, Context.NONE).getValue();
            } catch (BlobStorageException e) {
                if (lostRace(e)) {
                    return null;
                }
                throw e;
            } finally {
                options.setRequestConditions(null);
            }
        });
    }

    /**
     * The token the blob holds, or null when it holds none.
     *
     * @throws NotAFencingTokenException when its fence metadata holds no token
     */
    public @Nullable Long storedToken(@Nullable Map<String, String> metadata) {
        return storedToken("the blob's metadata '" + metadataKey + "'", metadata);
    }

    private @Nullable Long storedToken(String resource, @Nullable Map<String, String> metadata) {
        if (metadata == null) {
            return null;
        }
        for (Map.Entry<String, String> entry : metadata.entrySet()) {
            // Blob Storage keeps a metadata name's case as written, but compares names case-insensitively
            if (entry.getKey().toLowerCase(Locale.ROOT).equals(metadataKey)) {
                return FencingTokens.storedText(resource, entry.getValue());
            }
        }
        return null;
    }

    private FencingTokens.Seen<String> read(BlobClient blob) {
        BlobProperties properties;
        try {
            properties = blob.getProperties();
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404) {
                return FencingTokens.Seen.absent();
            }
            throw e;
        }
        return new FencingTokens.Seen<>(
                storedToken(resource(blob) + ", metadata '" + metadataKey + "'", properties.getMetadata()),
                properties.getETag());
    }

    private static String resource(BlobClient blob) {
        return "Blob Storage container '" + blob.getContainerName() + "', blob '" + blob.getBlobName() + "'";
    }

    private static boolean lostRace(BlobStorageException e) {
        return (e.getStatusCode() == 412 && BlobErrorCode.CONDITION_NOT_MET.equals(e.getErrorCode()))
                || (e.getStatusCode() == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode()));
    }
}
