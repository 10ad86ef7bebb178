package dev.cloudlock.azureblob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.util.BinaryData;
import com.azure.identity.EnvironmentCredentialBuilder;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import com.azure.storage.blob.specialized.BlobLeaseClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.KnownStateRequests;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Blob Storage specifics on Azurite: requests per operation, the blob layout, names, and the errors that name a fix. */
class AzureBlobLockStoreTest {

    private static final String CONTAINER = "store-test";
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    /** Counts every HTTP request the client sends, retries included. */
    private static final HttpPipelinePolicy COUNTER = new HttpPipelineSyncPolicy() {
        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            REQUESTS.incrementAndGet();
        }
    };

    private static BlobContainerClient container;

    @BeforeAll
    static void createContainer() {
        container = new BlobContainerClientBuilder()
                .connectionString(Emulators.azuriteConnectionString(Emulators.azurite()))
                .containerName(CONTAINER)
                .addPolicy(COUNTER)
                .buildClient();
        container.createIfNotExists();
    }

    private static CloudLockProvider provider(String lockedBy) {
        return AzureBlobLockProvider.builder()
                .container(container)
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    private static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void requestsPerOperation() {
        KnownStateRequests.perOperation(
                AzureBlobLockStoreTest::provider,
                () -> REQUESTS.getAndSet(0),
                unique("rt"),
                new KnownStateRequests.Requests("GET", "PUT If-None-Match", "PUT If-Match"));
    }

    @Test
    void twoInstancesTakingTurnsPayOneFailedWritePerRunOfTurns() {
        KnownStateRequests.twoInstancesTakingTurns(
                AzureBlobLockStoreTest::provider, () -> REQUESTS.getAndSet(0), unique("turns"));
    }

    @Test
    void theStateIsAJsonBodyUnderThePrefix() {
        String name = unique("layout");
        FencedLock lock = provider("host/42").tryLock(config(name)).orElseThrow();
        String body =
                container.getBlobClient("shedlock/" + name).downloadContent().toString();
        assertThat(body)
                .startsWith("{\"name\":\"" + name + "\"")
                .contains("\"lockedBy\":\"host/42\"")
                .contains("\"fence\":" + lock.fencingToken());
        assertThat(container.getBlobClient("shedlock/" + name).getProperties().getContentType())
                .isEqualTo("application/json");
        lock.unlock();
    }

    @Test
    void occurrenceRecordsAreKeptUnderTheirOwnPrefixForALifecycleRuleAndStillListed() {
        String prefix = "retention-" + UUID.randomUUID().toString().substring(0, 8) + "/";
        CloudLockProvider provider = AzureBlobLockProvider.builder()
                .container(container)
                .prefix(prefix)
                .lockedBy("a")
                .build();
        java.time.Instant tick = java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .minusSeconds(60);
        provider.lockTick(
                        config("nightly"),
                        tick,
                        TickOptions.defaults().completedTicks(dev.cloudlock.core.CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
        String occurrence = dev.cloudlock.core.CompletedTicks.EVERY_OCCURRENCE.recordName("nightly", tick);
        List<String> blobs = container.listBlobs(new ListBlobsOptions().setPrefix(prefix), null).stream()
                .map(BlobItem::getName)
                .toList();
        assertThat(blobs)
                .as("the job's record at the prefix, the occurrence record under occurrences/, where a lifecycle rule"
                        + " deletes it and nothing else")
                .containsExactlyInAnyOrder(prefix + "nightly", prefix + "occurrences/" + BlobNames.encode(occurrence));
        assertThat(provider.admin().list(null, 1000).locks())
                .extracting(dev.cloudlock.core.LockView::name)
                .containsExactlyInAnyOrder("nightly", occurrence);
        dev.cloudlock.core.LockAdmin.Page first = provider.admin().list(null, 1);
        assertThat(first.locks()).extracting(dev.cloudlock.core.LockView::name).containsExactly("nightly");
        dev.cloudlock.core.LockAdmin.Page second =
                provider.admin().list(first.nextPageToken().orElseThrow(), 1);
        assertThat(second.locks()).extracting(dev.cloudlock.core.LockView::name).containsExactly(occurrence);
        assertThat(second.nextPageToken()).isEmpty();
    }

    @Test
    void namesStayInsideThePrefixAndNeverShareABlob() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> names = List.of(
                tag + "/..",
                tag + "/../x",
                tag + "a.",
                tag + "a%2E",
                tag + "a/b",
                tag + "a%2Fb",
                tag + "\u00e9t\u00e9");
        CloudLockProvider provider = provider("a");
        for (String name : names) {
            provider.tryLock(config(name))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided with another name"));
        }
        List<String> blobs = container.listBlobs(new ListBlobsOptions().setPrefix("shedlock/" + tag), null).stream()
                .map(BlobItem::getName)
                .toList();
        assertThat(blobs).hasSize(names.size());
        assertThat(blobs)
                .allSatisfy(blob -> assertThat(blob.substring("shedlock/".length()))
                        .doesNotContain("/")
                        .doesNotEndWith("."));
        assertThat(BlobNames.encode("..")).isEqualTo("%2E%2E");
        assertThat(BlobNames.encode("a.")).isEqualTo("a%2E");
    }

    @Test
    void aNameTooLongForABlobNameIsRejectedBeforeAnyRequest() {
        REQUESTS.set(0);
        assertThatThrownBy(() -> provider("a").lock(config("\u00e9".repeat(200))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1024");
        assertThat(REQUESTS.get()).isZero();
    }

    @Test
    void aMissingContainerNamesTheCommandThatCreatesIt() {
        CloudLockProvider missing = AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.missingContainer())
                .build();
        assertThatThrownBy(() -> missing.lock(config("job")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'" + AzureBlobBackends.MISSING_CONTAINER + "' does not exist")
                .hasMessageContaining("az storage container create");
    }

    @Test
    void aWrongAccountKeyIsAConfigurationErrorAboutTheCredentials() {
        BlobContainerClient wrongKey = new BlobContainerClientBuilder()
                .connectionString(Emulators.azuriteConnectionString(Emulators.azurite())
                        .replace(Emulators.AZURITE_KEY, "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk="))
                .containerName(CONTAINER)
                .buildClient();
        assertThatThrownBy(() -> AzureBlobLockProvider.builder()
                        .container(wrongKey)
                        .build()
                        .lock(config(unique("wrong-key"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("account key");
    }

    @Test
    void anEntraIdClientThatFindsNoCredentialIsASetupErrorSayingWhereItLookedNotThatTheStoreWasUnreachable() {
        // Azure Identity's own credential, on a machine whose environment configures none; the token is asked for
        // before the connection, so the https endpoint needs nothing listening
        BlobContainerClient noCredential = new BlobContainerClientBuilder()
                .endpoint("https://127.0.0.1:1/devstoreaccount1")
                .containerName(CONTAINER)
                .credential(new EnvironmentCredentialBuilder().build())
                .buildClient();
        assertThatThrownBy(() -> AzureBlobLockProvider.builder()
                        .container(noCredential)
                        .build()
                        .lock(config(unique("no-credential"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("was not sent: the client found no credentials")
                .hasMessageContaining("EnvironmentCredential")
                .hasMessageNotContaining("could not be reached");
    }

    @Test
    void aReadOnlyGrantIsAConfigurationErrorThatNamesTheRole() {
        String sas = container.generateSas(new BlobServiceSasSignatureValues(
                OffsetDateTime.now().plusHours(1), new BlobContainerSasPermission().setReadPermission(true)));
        BlobContainerClient readOnly = new BlobContainerClientBuilder()
                .endpoint(container.getBlobContainerUrl())
                .sasToken(sas)
                .buildClient();
        assertThatThrownBy(() -> AzureBlobLockProvider.builder()
                        .container(readOnly)
                        .build()
                        .lock(config(unique("read-only"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("Storage Blob Data Contributor");
    }

    @Test
    void aLeaseOnALockBlobIsAConfigurationErrorNeverHeld() {
        String name = unique("leased");
        CloudLockProvider provider = provider("a");
        provider.tryLock(config(name)).orElseThrow().unlock();
        BlobLeaseClient lease = new BlobLeaseClientBuilder()
                .blobClient(container.getBlobClient("shedlock/" + name))
                .buildClient();
        lease.acquireLease(-1);
        try {
            assertThatThrownBy(() -> provider.lock(config(name)))
                    .isInstanceOf(LockStoreConfigurationException.class)
                    .hasMessageContaining("lease");
        } finally {
            lease.breakLeaseWithResponse(0, null, null, null);
        }
        assertThat(provider.lock(config(name)))
                .as("negative control: the same acquisition once the lease is broken")
                .isPresent();
    }

    @Test
    void aBlobUnderThePrefixThatIsNotALockRecordIsAnErrorNamingIt() {
        String name = unique("foreign");
        container.getBlobClient("shedlock/" + name).upload(BinaryData.fromString("hello"));
        assertThatThrownBy(() -> provider("a").lock(config(name)))
                .isInstanceOf(LockStoreException.class)
                .isNotInstanceOf(LockStoreConfigurationException.class)
                .isNotInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("shedlock/" + name)
                .hasMessageContaining("not a cloudlock lock record");
    }

    @Test
    void setupCreatesAMissingContainerOnceAndThenFindsIt() {
        String name = "created-" + UUID.randomUUID().toString().substring(0, 8);
        CloudLockProvider provider = AzureBlobLockProvider.builder()
                .container(container.getServiceClient().getBlobContainerClient(name))
                .build();
        var first = provider.admin().init();
        assertThat(first.created()).isTrue();
        assertThat(first.description()).contains("Created the container '" + name + "'");
        var second = provider.admin().init();
        assertThat(second.created()).isFalse();
        assertThat(second.description()).contains("exists");
        assertThat(provider.tryLock(config("job"))).isPresent();
    }

    @Test
    void aListingSkipsBlobsUnderThePrefixThatAreNoLockObjects() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        container.getBlobClient("shedlock/" + tag + "%zz").upload(BinaryData.fromString("not ours"));
        container.getBlobClient("shedlock/" + tag + "/nested").upload(BinaryData.fromString("not ours"));
        CloudLockProvider provider = provider("a");
        provider.tryLock(config(tag + "-lock")).orElseThrow().unlock();
        List<String> listed = new java.util.ArrayList<>();
        java.util.Optional<String> token = java.util.Optional.empty();
        do {
            var page = provider.admin().list(token.orElse(null), 1000);
            page.locks().forEach(lock -> listed.add(lock.name()));
            token = page.nextPageToken();
        } while (token.isPresent());
        assertThat(listed).contains(tag + "-lock").noneMatch(name -> name.startsWith(tag + "%") || name.contains("/"));
    }

    @Test
    void responsesFeedTheClockSkewMonitor() {
        CloudLockProvider provider = provider("a");
        String name = unique("skew");
        for (int i = 0; i < 5; i++) {
            provider.tryLock(config(name)).orElseThrow().unlock();
        }
        var estimate =
                provider.store().clockSkewMonitor().orElseThrow().estimate().orElseThrow();
        assertThat(estimate.samples()).isGreaterThanOrEqualTo(2);
        // Azurite runs on this machine's clock: the true offset is 0, so 0 lies within the reported bound
        assertThat(estimate.offset().abs()).isLessThanOrEqualTo(estimate.errorBound());
    }

    @Test
    void builderAndPrefixNameTheProblem() {
        assertThatThrownBy(() -> AzureBlobLockProvider.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("container");
        assertThatThrownBy(() -> AzureBlobLockProvider.builder()
                        .container(container)
                        .prefix("a/../b/")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'..'");
        assertThatThrownBy(() -> AzureBlobLockProvider.builder()
                        .container(container)
                        .prefix("/locks/")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/'");
        assertThat(BlobNames.blobName("", "x")).isEqualTo("x");
    }
}
