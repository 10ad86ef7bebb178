package dev.cloudlock.azuretable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.testkit.KnownStateRequests;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Table Storage specifics on Azurite: requests per operation, the entity layout, names, and errors that name a fix. */
class AzureTableLockStoreTest {

    private static final String TABLE = "storetest";
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    /** Counts every HTTP request the client sends, retries included. */
    private static final HttpPipelinePolicy COUNTER = new HttpPipelineSyncPolicy() {
        @Override
        protected void beforeSendingRequest(HttpPipelineCallContext context) {
            REQUESTS.incrementAndGet();
        }
    };

    private static TableClient table;

    @BeforeAll
    static void createTable() {
        table = new TableClientBuilder()
                .connectionString(AzureTableBackends.connectionString(
                        Emulators.azuriteTable().endpoint()))
                .tableName(TABLE)
                .addPolicy(COUNTER)
                .buildClient();
        AzureTableBackends.service().createTableIfNotExists(TABLE);
    }

    private static CloudLockProvider provider(String lockedBy) {
        return AzureTableLockProvider.builder().table(table).lockedBy(lockedBy).build();
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
                AzureTableLockStoreTest::provider,
                () -> REQUESTS.getAndSet(0),
                unique("rt"),
                new KnownStateRequests.Requests("Get Entity", "Insert Entity", "Update Entity If-Match"));
    }

    @Test
    void twoInstancesTakingTurnsPayOneFailedWritePerRunOfTurns() {
        KnownStateRequests.twoInstancesTakingTurns(
                AzureTableLockStoreTest::provider, () -> REQUESTS.getAndSet(0), unique("turns"));
    }

    @Test
    void theStateIsInPropertiesOfOneEntityInTheJobsPartition() {
        String name = unique("layout");
        FencedLock lock = provider("host/42").tryLock(config(name)).orElseThrow();
        TableEntity entity = table.getEntity(TableKeys.JOBS, name);
        assertThat(entity.getProperties())
                .containsEntry("name", name)
                .containsEntry("lockedBy", "host/42")
                .containsEntry("fence", lock.fencingToken())
                .containsKeys("lockUntil", "lockedAt", "owner");
        assertThat((String) entity.getProperty("lockUntil"))
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        lock.unlock();
    }

    @Test
    void occurrenceRecordsAreKeptInTheirOwnPartitionAndStillListed() {
        String tag = "retention-" + UUID.randomUUID().toString().substring(0, 8);
        String tableName = "occ" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        TableClient own = AzureTableBackends.service().createTable(tableName);
        CloudLockProvider provider =
                AzureTableLockProvider.builder().table(own).lockedBy("a").build();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        provider.lockTick(config(tag), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
        String occurrence = CompletedTicks.EVERY_OCCURRENCE.recordName(tag, tick);
        List<String> keys = own.listEntities().stream()
                .map(entity -> entity.getPartitionKey() + "|" + entity.getRowKey())
                .toList();
        assertThat(keys)
                .as("the job's record in partition jobs, the occurrence record in partition occurrences")
                .containsExactlyInAnyOrder(
                        "jobs|" + tag, "occurrences|" + dev.cloudlock.spi.ObjectKeys.encode(occurrence));
        assertThat(provider.admin().list(null, 1000).locks())
                .extracting(LockView::name)
                .containsExactlyInAnyOrder(tag, occurrence);
        LockAdmin.Page first = provider.admin().list(null, 1);
        assertThat(first.locks()).extracting(LockView::name).containsExactly(tag);
        LockAdmin.Page second = provider.admin().list(first.nextPageToken().orElseThrow(), 1);
        assertThat(second.locks()).extracting(LockView::name).containsExactly(occurrence);
        assertThat(second.nextPageToken()).isEmpty();
    }

    @Test
    void namesWithCharactersTableKeysForbidAreEncodedAndNeverShareAnEntity() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> names = List.of(
                tag + "/x", tag + "\\x", tag + "#x", tag + "?x", tag + "%2Fx", tag + "\u00e9t\u00e9", tag + "..");
        CloudLockProvider provider = provider("a");
        for (String name : names) {
            provider.tryLock(config(name))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided with another name"));
        }
        List<String> rows = table
                .listEntities(
                        new ListEntitiesOptions()
                                .setFilter("PartitionKey eq 'jobs' and RowKey ge '" + tag + "' and RowKey lt '" + tag
                                        + "{'"),
                        null,
                        null)
                .stream()
                .map(TableEntity::getRowKey)
                .toList();
        assertThat(rows).hasSize(names.size()).allSatisfy(row -> assertThat(row).matches("[A-Za-z0-9._%-]+"));
        List<String> listed = new ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.Page page = provider.admin().list(token.orElse(null), 1000);
            page.locks().forEach(lock -> listed.add(lock.name()));
            token = page.nextPageToken();
        } while (token.isPresent());
        assertThat(listed).as("every name comes back exact from the listing").containsAll(names);
    }

    @Test
    void aNameTooLongForARowKeyIsRejectedBeforeAnyRequest() {
        REQUESTS.set(0);
        assertThatThrownBy(() -> provider("a").lock(config("\u00e9".repeat(90))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("512");
        assertThat(REQUESTS.get()).isZero();
        assertThat(provider("a").lock(config(unique("\u00e9".repeat(80)))))
                .as("negative control: a name whose row key fits")
                .isPresent();
    }

    @Test
    void aMissingTableNamesTheCommandThatCreatesIt() {
        CloudLockProvider missing = AzureTableLockProvider.builder()
                .table(AzureTableBackends.missingTable())
                .build();
        assertThatThrownBy(() -> missing.lock(config("job")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'" + AzureTableBackends.MISSING_TABLE + "' does not exist")
                .hasMessageContaining("az storage table create");
    }

    @Test
    void aWrongAccountKeyIsAConfigurationErrorAboutTheCredentials() {
        TableClient wrongKey = new TableClientBuilder()
                .connectionString(AzureTableBackends.connectionString(
                                Emulators.azuriteTable().endpoint())
                        .replace(Emulators.AZURITE_KEY, "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk="))
                .tableName(TABLE)
                .buildClient();
        assertThatThrownBy(() ->
                        AzureTableLockProvider.builder().table(wrongKey).build().lock(config(unique("wrong-key"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("account key");
    }

    @Test
    void aReadOnlyGrantIsAConfigurationErrorThatNamesTheRole() {
        String sas = table.generateSas(
                new TableSasSignatureValues(OffsetDateTime.now().plusHours(1), TableSasPermission.parse("r")));
        TableClient readOnly = new TableClientBuilder()
                .endpoint(Emulators.azuriteTable().endpoint() + "/" + Emulators.AZURITE_ACCOUNT)
                .tableName(TABLE)
                .sasToken(sas)
                .buildClient();
        assertThatThrownBy(() ->
                        AzureTableLockProvider.builder().table(readOnly).build().lock(config(unique("read-only"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("Storage Table Data Contributor");
    }

    @Test
    void anEntityThatIsNotALockRecordIsAnErrorNamingIt() {
        String name = unique("foreign");
        table.upsertEntity(new TableEntity(TableKeys.JOBS, name).addProperty("fence", "seven"));
        assertThatThrownBy(() -> provider("a").lock(config(name)))
                .isInstanceOf(LockStoreException.class)
                .isNotInstanceOf(LockStoreConfigurationException.class)
                .isNotInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("RowKey '" + name + "'")
                .hasMessageContaining("not a cloudlock lock record");
    }

    @Test
    void setupCreatesAMissingTableOnceAndThenFindsIt() {
        String name = "created" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        CloudLockProvider provider = AzureTableLockProvider.builder()
                .table(AzureTableBackends.service().getTableClient(name))
                .build();
        StoreSetup first = provider.admin().init();
        assertThat(first.created()).isTrue();
        assertThat(first.description()).contains("Created the table '" + name + "'");
        StoreSetup second = provider.admin().init();
        assertThat(second.created()).isFalse();
        assertThat(second.description()).contains("exists");
        assertThat(provider.tryLock(config("job"))).isPresent();
    }

    @Test
    void aListingSkipsEntitiesThatAreNoLockRecords() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        table.upsertEntity(new TableEntity(TableKeys.JOBS, tag + "%zz").addProperty("note", "not ours"));
        table.upsertEntity(new TableEntity(TableKeys.JOBS, tag + "-plain").addProperty("fence", "x"));
        CloudLockProvider provider = provider("a");
        provider.tryLock(config(tag + "-lock")).orElseThrow().unlock();
        List<String> listed = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.Page page = provider.admin().list(token.orElse(null), 1000);
            page.locks().forEach(lock -> listed.add(lock.name()));
            page.skipped().forEach(skip -> skipped.add(skip.key()));
            token = page.nextPageToken();
        } while (token.isPresent());
        assertThat(listed)
                .contains(tag + "-lock")
                .doesNotContain(tag + "-plain")
                .noneMatch(n -> n.startsWith(tag + "%"));
        assertThat(skipped).contains(tag + "%zz", tag + "-plain");
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
    void theEtagOfAWriteIsTheFormEntitiesCarry() {
        assertThat(AzureTableLockStore.quoted("W/datetime'2026-12-04T21%3A38%3A17.0792132Z'"))
                .isEqualTo("W/\"datetime'2026-12-04T21%3A38%3A17.0792132Z'\"");
        assertThat(AzureTableLockStore.quoted("W/\"datetime'x'\"")).isEqualTo("W/\"datetime'x'\"");
    }

    @Test
    void theBuilderNamesWhatIsMissing() {
        assertThatThrownBy(() -> AzureTableLockProvider.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table");
    }
}
