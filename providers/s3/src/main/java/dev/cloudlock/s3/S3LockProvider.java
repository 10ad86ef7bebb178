package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The ShedLock {@code LockProvider} on S3: {@link CloudLockProvider}'s guarantees (owner-checked release, fencing
 * tokens, tick dedupe, errors never reported as "held") over an {@link S3LockStore}, one object per lock and one
 * conditional {@code PutObject} per release and extend (acquire: one in the steady state, a {@code GET} and a
 * {@code PUT} after another holder).
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
public final class S3LockProvider extends CloudLockProvider {

    /** The key prefix used unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "shedlock/";

    private S3LockProvider(S3Client client, String bucket, Builder builder) {
        super(
                new S3LockStore(
                        client,
                        bucket,
                        builder.prefix,
                        new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                        builder.timeouts),
                builder.lockedBy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link S3LockProvider}; {@code client} and {@code bucket} are required. */
    public static final class Builder {
        private @Nullable S3Client client;
        private @Nullable String bucket;
        private String prefix = DEFAULT_PREFIX;
        private String lockedBy = InstanceIdentity.hostAndPid();
        private CallTimeouts timeouts = CallTimeouts.DEFAULT;

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

        /** The key prefix of the lock objects; default {@code shedlock/}, {@code ""} for the bucket's root. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /** The readable identity written to {@code lockedBy}; default {@code hostname/pid}. */
        public Builder lockedBy(String lockedBy) {
            this.lockedBy = lockedBy;
            return this;
        }

        /**
         * The deadline of each S3 call, all retries included; default 10 s. Set on every request (so it also bounds
         * a client you built); an acquire or extend is capped at its lease, never below 1 s
         * ({@link dev.cloudlock.spi.CallTimeouts}). A call that hits it throws
         * {@link dev.cloudlock.core.LockStoreUnavailableException}.
         */
        public Builder callTimeout(Duration total) {
            this.timeouts = timeouts.withTotal(total);
            return this;
        }

        /** The deadline of each single attempt within a call; default 3 s (never longer than the call timeout). */
        public Builder attemptTimeout(Duration perAttempt) {
            this.timeouts = timeouts.withPerAttempt(perAttempt);
            return this;
        }

        public S3LockProvider build() {
            if (client == null) {
                throw new IllegalStateException("client is required: S3LockProvider.builder().client(...)");
            }
            if (bucket == null) {
                throw new IllegalStateException("bucket is required: S3LockProvider.builder().bucket(...)");
            }
            return new S3LockProvider(client, bucket, this);
        }
    }
}
