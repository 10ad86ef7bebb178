package dev.cloudlock.azureblob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Fenced uploads to a job's own container on Azurite, the lock taken on the lock container by two real providers. */
class BlobFenceTest extends StaleHolderCases {

    private static final String BLOB = "nightly/report.txt";

    private final AtomicInteger requests = new AtomicInteger();
    private final BlobContainerClient reports = reports(new Counting(requests, null));
    private final BlobFence fence = BlobFence.inMetadata();

    /** Counts requests, and runs {@code beforeFirstPut} once before the first PUT goes out. */
    private static final class Counting implements HttpPipelinePolicy {
        private final AtomicInteger requests;
        private @Nullable Runnable beforeFirstPut;

        Counting(AtomicInteger requests, @Nullable Runnable beforeFirstPut) {
            this.requests = requests;
            this.beforeFirstPut = beforeFirstPut;
        }

        private void seen(HttpPipelineCallContext context) {
            requests.incrementAndGet();
            if (beforeFirstPut != null && context.getHttpRequest().getHttpMethod() == HttpMethod.PUT) {
                Runnable race = beforeFirstPut;
                beforeFirstPut = null;
                race.run();
            }
        }

        @Override
        public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            seen(context);
            return next.process();
        }

        @Override
        public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
            seen(context);
            return next.processSync();
        }
    }

    private static BlobContainerClient reports(HttpPipelinePolicy policy) {
        return new BlobContainerClientBuilder()
                .connectionString(Emulators.azuriteConnectionString(Emulators.azurite()))
                .containerName("reports")
                .addPolicy(policy)
                .buildClient();
    }

    private final StaleHolderScenario.Sink sink = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) {
            fence.upload(blob(), options(value), token);
        }

        @Override
        public void writeUnfenced(String value) {
            blob().upload(BinaryData.fromString(value), true);
        }

        @Override
        public @Nullable String read() {
            try {
                return blob().downloadContent().toString();
            } catch (BlobStorageException e) {
                if (e.getStatusCode() == 404) {
                    return null;
                }
                throw e;
            }
        }
    };

    @BeforeEach
    void emptyContainer() {
        reports.createIfNotExists();
        reports.getBlobClient(BLOB).deleteIfExists();
    }

    private BlobClient blob() {
        return reports.getBlobClient(BLOB);
    }

    private static BlobParallelUploadOptions options(String value) {
        return new BlobParallelUploadOptions(BinaryData.fromString(value)).setMetadata(Map.of("job", "nightly"));
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    @Test
    void aFencedUploadIsAReadAndAConditionalUploadAndKeepsTheUsersMetadata() {
        requests.set(0);
        fence.upload(blob(), options("first"), 7);
        fence.upload(blob(), options("second"), 8);
        assertThat(requests).as("two writes").hasValue(4);
        assertThat(blob().getProperties().getMetadata())
                .containsEntry("job", "nightly")
                .containsEntry("cloudlockfence", "8");
        requests.set(0);
        assertThatThrownBy(() -> fence.upload(blob(), BinaryData.fromString("stale"), 7))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("container 'reports', blob 'nightly/report.txt'");
        assertThat(requests).as("a refusal: the read only").hasValue(1);
    }

    @Test
    void anUploadThatLostTheRaceReadsAgainAndIsThenRefused() throws Exception {
        fence.upload(blob(), options("A"), 7);
        BlobContainerClient racing =
                reports(new Counting(new AtomicInteger(), () -> fence.upload(blob(), options("B"), 8)));
        assertThatThrownBy(() -> fence.upload(racing.getBlobClient(BLOB), options("A late"), 7))
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
            blob().uploadWithResponse(
                            new BlobParallelUploadOptions(BinaryData.fromString("planted"))
                                    .setMetadata(Map.of(BlobFence.DEFAULT_METADATA_KEY, fence.text())),
                            null,
                            com.azure.core.util.Context.NONE);
            return sink;
        }
    }
}
