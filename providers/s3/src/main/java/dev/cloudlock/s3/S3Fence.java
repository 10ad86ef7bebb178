package dev.cloudlock.s3;

import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Fenced writes to a job's own S3 objects: the object keeps the fencing token of the newest holding that wrote it in
 * its user metadata ({@code x-amz-meta-}{@value #DEFAULT_METADATA_KEY} unless named otherwise), and a fenced
 * {@code PutObject} reads it first ({@code HeadObject}), refuses a token older than it ({@link FencingTokens#admits}),
 * and writes conditioned on the ETag it read ({@code If-Match}; {@code If-None-Match: *} when the object is absent). A
 * write that lost a race (412, or 409 ConditionalRequestConflict) reads again. Two requests per write; a refusal costs
 * one and writes nothing.
 *
 * <p>The limit: the ETag of a single-part upload is derived from the body (its MD5 without SSE-KMS), not from the
 * metadata. If, in the one round trip between the stale holder's read and its write, a newer holding writes exactly
 * the body the stale holder read, the ETag is unchanged and the stale write lands. A job whose bodies can repeat
 * closes this by making each holding's body unique, for example by writing its token into it.
 *
 * <p>The request's own metadata is kept; its own {@code If-Match} / {@code If-None-Match} are refused (the fence needs
 * them). The body is sent again after a lost race, so it must be replayable ({@code RequestBody.fromBytes},
 * {@code fromString}, {@code fromFile}).
 */
public final class S3Fence {

    /** The metadata key of the fence unless one is given (S3 keeps metadata keys in lower case). */
    public static final String DEFAULT_METADATA_KEY = "cloudlock-fence";

    private final String metadataKey;

    private S3Fence(String metadataKey) {
        if (metadataKey.isBlank() || !metadataKey.equals(metadataKey.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                    "the fence's metadata key '" + metadataKey + "' must be non-blank and in lower case");
        }
        this.metadataKey = metadataKey;
    }

    /** Fences kept under the metadata key {@value #DEFAULT_METADATA_KEY}. */
    public static S3Fence inMetadata() {
        return new S3Fence(DEFAULT_METADATA_KEY);
    }

    /** Fences kept under the metadata key {@code metadataKey} (lower case). */
    public static S3Fence inMetadata(String metadataKey) {
        return new S3Fence(Objects.requireNonNull(metadataKey, "metadataKey"));
    }

    /**
     * Writes the object of {@code request} fenced by {@code token}.
     *
     * @throws StaleFencingTokenException when the object holds a newer token (nothing written)
     */
    public PutObjectResponse putObject(S3Client s3, PutObjectRequest request, RequestBody body, long token) {
        if (request.ifMatch() != null || request.ifNoneMatch() != null) {
            throw new IllegalArgumentException("a fenced PutObject is conditioned by the fence; this request has its"
                    + " own If-Match / If-None-Match");
        }
        Map<String, String> metadata = new HashMap<>(request.hasMetadata() ? request.metadata() : Map.of());
        String given = metadata.put(metadataKey, Long.toString(token));
        if (given != null && !given.equals(Long.toString(token))) {
            throw new IllegalArgumentException(
                    "the request's metadata already sets the fence '" + metadataKey + "' to " + given);
        }
        String resource = "s3://" + request.bucket() + "/" + request.key();
        return FencingTokens.writeOnVersion(resource, token, () -> read(s3, request.bucket(), request.key()), etag -> {
            PutObjectRequest.Builder put = request.toBuilder().metadata(metadata);
            if (etag == null) {
                put.ifNoneMatch("*");
            } else {
                put.ifMatch(etag);
            }
            try {
                return s3.putObject(put.build(), body);
            } catch (S3Exception e) {
                if (lostRace(e)) {
                    return null;
                }
                throw e;
            }
        });
    }

    /**
     * The token the object holds, or null when it holds none.
     *
     * @throws NotAFencingTokenException when its fence metadata holds no token
     */
    public @Nullable Long storedToken(Map<String, String> metadata) {
        return storedToken("the object's metadata '" + metadataKey + "'", metadata);
    }

    private @Nullable Long storedToken(String resource, Map<String, String> metadata) {
        return FencingTokens.storedText(resource, metadata.get(metadataKey));
    }

    private FencingTokens.Seen<String> read(S3Client s3, String bucket, String key) {
        HeadObjectResponse head;
        try {
            head = s3.headObject(b -> b.bucket(bucket).key(key));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return FencingTokens.Seen.absent();
            }
            throw e;
        }
        String resource = "s3://" + bucket + "/" + key + ", metadata '" + metadataKey + "'";
        return new FencingTokens.Seen<>(
                storedToken(resource, head.hasMetadata() ? head.metadata() : Map.of()), head.eTag());
    }

    private static boolean lostRace(S3Exception e) {
        return e.statusCode() == 412
                || (e.statusCode() == 409
                        && e.awsErrorDetails() != null
                        && "ConditionalRequestConflict"
                                .equals(e.awsErrorDetails().errorCode()));
    }
}
