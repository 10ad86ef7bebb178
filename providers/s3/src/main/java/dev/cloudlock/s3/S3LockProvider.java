package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The ShedLock {@code LockProvider} on S3: {@link #builder()} builds a {@link CloudLockProvider} (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over an {@link S3LockStore}, one object per
 * lock and one conditional {@code PutObject} per release and extend (acquire: one in the steady state, a {@code GET}
 * and a {@code PUT} after another holder).
 *
 * <p>Errors: a missing bucket, a bucket in another region, access denied and an endpoint without conditional writes
 * throw {@link LockStoreConfigurationException} (fix the setup; the message names the bucket or the permissions); an
 * unreachable endpoint, a timeout, 503 SlowDown and other 5xx throw {@link LockStoreUnavailableException} (retry
 * later). Anything else, such as an object under the prefix that is not a lock record, is a plain
 * {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = S3LockProvider.builder()
 *         .client(s3Client)
 *         .bucket("locks")
 *         .prefix("shedlock/")
 *         .build();
 * }</pre>
 */
public final class S3LockProvider {

    /** The key prefix used unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "shedlock/";

    private S3LockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on S3; {@code client} and {@code bucket} are required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable S3Client client;
        private @Nullable String bucket;
        private String prefix = DEFAULT_PREFIX;

        private Builder() {}

        /** The S3 client to use. Required. */
        public Builder client(S3Client client) {
            this.client = client;
            return this;
        }

        /** The bucket holding the lock objects; it must exist. Required. */
        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /**
         * The key prefix of the lock objects, prepended to each key as it is ({@code jobs} gives {@code jobsnightly}:
         * end a folder with {@code /}); default {@code shedlock/}, {@code ""} for the bucket's root.
         *
         * @throws IllegalArgumentException when the prefix starts with {@code /}, holds {@code .} or {@code ..}
         *     segments, or leaves no room for lock names
         */
        public Builder prefix(String prefix) {
            this.prefix = S3Keys.checkPrefix(prefix);
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new S3LockStore(
                    required(client, "client"),
                    required(bucket, "bucket"),
                    prefix,
                    new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                    timeouts);
        }
    }
}
