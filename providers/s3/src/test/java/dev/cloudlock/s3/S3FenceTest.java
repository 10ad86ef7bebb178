package dev.cloudlock.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/** Fenced writes to a job's own bucket on moto, the lock taken on the lock bucket by two real providers. */
class S3FenceTest extends StaleHolderCases {

    private static final String REPORTS = "reports";
    private static final String KEY = "nightly/report.txt";
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final ExecutionInterceptor COUNTER = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            REQUESTS.incrementAndGet();
        }
    };
    private static final S3Client CLIENT = S3Backends.client(S3Backends.moto(), COUNTER);

    private final S3Fence fence = S3Fence.inMetadata();

    private final StaleHolderScenario.Sink sink = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) {
            fence.putObject(CLIENT, put(), RequestBody.fromString(value), token);
        }

        @Override
        public void writeUnfenced(String value) {
            CLIENT.putObject(put(), RequestBody.fromString(value));
        }

        @Override
        public @Nullable String read() {
            try {
                return CLIENT.getObjectAsBytes(b -> b.bucket(REPORTS).key(KEY)).asString(StandardCharsets.UTF_8);
            } catch (NoSuchKeyException absent) {
                return null;
            }
        }
    };

    @BeforeEach
    void reset() {
        S3Backends.resetMoto(CLIENT);
        S3Backends.createBucket(CLIENT, REPORTS);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return S3LockProvider.builder()
                .client(CLIENT)
                .bucket(S3Backends.BUCKET)
                .lockedBy(lockedBy)
                .build();
    }

    private static PutObjectRequest put() {
        return PutObjectRequest.builder()
                .bucket(REPORTS)
                .key(KEY)
                .contentType("text/plain")
                .metadata(Map.of("job", "nightly"))
                .build();
    }

    @Test
    void aFencedWriteIsAHeadAndAConditionalPutAndKeepsTheUsersMetadata() {
        REQUESTS.set(0);
        fence.putObject(CLIENT, put(), RequestBody.fromString("first"), 7);
        fence.putObject(CLIENT, put(), RequestBody.fromString("second"), 8);
        assertThat(REQUESTS).as("two writes").hasValue(4);
        assertThat(CLIENT.headObject(b -> b.bucket(REPORTS).key(KEY)).metadata())
                .containsEntry("job", "nightly")
                .containsEntry("cloudlock-fence", "8");
        REQUESTS.set(0);
        assertThatThrownBy(() -> fence.putObject(CLIENT, put(), RequestBody.fromString("stale"), 7))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("s3://reports/nightly/report.txt");
        assertThat(REQUESTS).as("a refusal: the read only").hasValue(1);
    }

    @Test
    void aWriteThatLostTheRaceReadsAgainAndIsThenRefused() throws Exception {
        fence.putObject(CLIENT, put(), RequestBody.fromString("A"), 7);
        S3Client racing = S3Backends.client(S3Backends.moto(), new ExecutionInterceptor() {
            private boolean raced;

            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (!raced && context.httpRequest().method().name().equals("PUT")) {
                    raced = true; // between A's read and A's write, B writes with its newer token
                    fence.putObject(CLIENT, put(), RequestBody.fromString("B"), 8);
                }
            }
        });
        assertThatThrownBy(() -> fence.putObject(racing, put(), RequestBody.fromString("A late"), 7))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(sink.read()).isEqualTo("B");
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return sink;
    }

    /** Fence metadata another tool wrote: text, a fraction, a number beyond the token's range. */
    @Nested
    class HostileFences extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) {
            CLIENT.putObject(
                    put().toBuilder()
                            .metadata(Map.of(S3Fence.DEFAULT_METADATA_KEY, fence.text()))
                            .build(),
                    RequestBody.fromString("planted"));
            return sink;
        }
    }
}
