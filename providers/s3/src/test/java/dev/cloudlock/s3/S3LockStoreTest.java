package dev.cloudlock.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.testkit.KnownStateRequests;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/** S3 specifics on moto: requests per operation, keys, the object body, configuration errors, the skew monitor. */
class S3LockStoreTest {

    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final ExecutionInterceptor COUNTER = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            REQUESTS.incrementAndGet();
        }
    };
    private static final S3Client CLIENT = S3Backends.client(S3Backends.moto(), COUNTER);

    @BeforeEach
    void reset() {
        S3Backends.resetMoto(CLIENT);
    }

    private static LockConfiguration config(String name, Duration lockAtMostFor) {
        return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, Duration.ZERO);
    }

    private static LockConfiguration config(String name) {
        return config(name, Duration.ofMinutes(1));
    }

    private static CloudLockProvider provider(String lockedBy) {
        return S3LockProvider.builder()
                .client(CLIENT)
                .bucket(S3Backends.BUCKET)
                .lockedBy(lockedBy)
                .build();
    }

    @Test
    void requestsPerOperation() {
        KnownStateRequests.perOperation(
                S3LockStoreTest::provider,
                () -> REQUESTS.getAndSet(0),
                "rt-" + System.nanoTime(),
                new KnownStateRequests.Requests("GET", "PUT If-None-Match", "PUT If-Match"));
    }

    @Test
    void twoInstancesTakingTurnsPayOneFailedWritePerRunOfTurns() {
        KnownStateRequests.twoInstancesTakingTurns(
                S3LockStoreTest::provider, () -> REQUESTS.getAndSet(0), "turns-" + System.nanoTime());
    }

    @Test
    void staleHandleOfTheSameProviderCannotReleaseItsSuccessor() throws InterruptedException {
        CloudLockProvider a = provider("a");
        FencedLock stale =
                a.tryLock(config("successor", Duration.ofMillis(150))).orElseThrow();
        Thread.sleep(300);
        FencedLock current = a.tryLock(config("successor")).orElseThrow();
        REQUESTS.set(0);
        stale.unlock();
        assertThat(REQUESTS.get())
                .as("a GET shows another owner; no write; core's GET to say what the record shows")
                .isEqualTo(2);
        assertThat(provider("b").lock(config("successor")))
                .as("still held by the successor")
                .isEmpty();
        FencedLock extended = (FencedLock)
                current.extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow();
        extended.unlock();
        assertThat(provider("b").lock(config("successor"))).isPresent();
    }

    @Test
    void keysAreEncodedUnderThePrefix() {
        Map<String, String> expected = Map.of(
                "report", "report",
                "Report", "Report",
                "a/b", "a%2Fb",
                "../escape", "..%2Fescape",
                "..", "%2E%2E",
                ".", "%2E",
                "50%", "50%25",
                "a%2Fb", "a%252Fb",
                "ünï 😀", "%C3%BCn%C3%AF%20%F0%9F%98%80");
        CloudLockProvider provider = provider("a");
        CloudLockProvider custom = S3LockProvider.builder()
                .client(CLIENT)
                .bucket(S3Backends.BUCKET)
                .prefix("jobs/nightly-")
                .build();
        for (String name : expected.keySet()) {
            provider.tryLock(config(name)).orElseThrow().unlock();
        }
        custom.tryLock(config("a/b")).orElseThrow().unlock();

        List<String> keys = CLIENT.listObjectsV2Paginator(b -> b.bucket(S3Backends.BUCKET)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
        List<String> wanted = expected.values().stream()
                .map(k -> S3LockProvider.DEFAULT_PREFIX + k)
                .collect(Collectors.toCollection(java.util.ArrayList::new));
        wanted.add("jobs/nightly-a%2Fb");
        assertThat(keys).containsExactlyInAnyOrderElementsOf(wanted);
        assertThat(((S3LockStore) provider.store()).key("a/b")).isEqualTo("shedlock/a%2Fb");
    }

    @Test
    void occurrenceRecordsAreKeptUnderTheirOwnPrefixForALifecycleRuleAndStillListed() {
        java.time.Instant tick = java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .minusSeconds(60);
        CloudLockProvider provider = provider("a");
        dev.cloudlock.core.TickAttempt attempt = provider.lockTick(
                config("nightly"),
                tick,
                TickOptions.defaults().completedTicks(dev.cloudlock.core.CompletedTicks.EVERY_OCCURRENCE));
        attempt.lock().orElseThrow().completeTick();
        String occurrence = dev.cloudlock.core.CompletedTicks.EVERY_OCCURRENCE.recordName("nightly", tick);
        List<String> keys = CLIENT.listObjectsV2Paginator(b -> b.bucket(S3Backends.BUCKET)).contents().stream()
                .map(S3Object::key)
                .toList();
        assertThat(keys)
                .as("the job's record at the prefix, the occurrence record under occurrences/, where a lifecycle rule"
                        + " expires it and nothing else")
                .containsExactlyInAnyOrder(
                        "shedlock/nightly", "shedlock/occurrences/" + dev.cloudlock.spi.ObjectKeys.encode(occurrence));
        assertThat(provider.store().read(occurrence).orElseThrow().watermark()).isEqualTo(tick);
        assertThat(provider.admin().list(null, 1000).locks())
                .extracting(dev.cloudlock.core.LockView::name)
                .containsExactlyInAnyOrder("nightly", occurrence);
        // one at a time: the job's record, then (across the two listings) the occurrence record
        dev.cloudlock.core.LockAdmin.Page first = provider.admin().list(null, 1);
        assertThat(first.locks()).extracting(dev.cloudlock.core.LockView::name).containsExactly("nightly");
        dev.cloudlock.core.LockAdmin.Page second =
                provider.admin().list(first.nextPageToken().orElseThrow(), 1);
        assertThat(second.locks()).extracting(dev.cloudlock.core.LockView::name).containsExactly(occurrence);
        assertThat(second.nextPageToken()).isEmpty();
    }

    @Test
    void encodingIsInjectiveAndSlashFree() {
        List<String> names = List.of(
                "a", "A", "a/b", "a%2Fb", "a%2fb", "a_b", "a.b", "a b", "a+b", ".", "..", "...", "%2E", "%2E%2E", "./a",
                "../a", "a/..", "ü", "u\u0308", "😀", "%", "%%", "~", "*");
        List<String> encoded = names.stream().map(ObjectKeys::encode).toList();
        assertThat(encoded).doesNotHaveDuplicates();
        for (int i = 0; i < names.size(); i++) {
            assertThat(encoded.get(i))
                    .as(names.get(i))
                    .doesNotContain("/")
                    .isNotIn(".", "..")
                    .matches("[A-Za-z0-9._%-]+");
            assertThat(percentDecode(encoded.get(i))).as("decodes back").isEqualTo(names.get(i));
        }
    }

    @Test
    void namesWithoutAKeyAreRejected() {
        CloudLockProvider provider = provider("a");
        assertThatThrownBy(() -> provider.lock(config("bad\uD800name")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
        assertThatThrownBy(() -> provider.lock(config("\uDC00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
        assertThatThrownBy(() -> provider.lock(config("é".repeat(255))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1024");
        provider.tryLock(config("é".repeat(100))).orElseThrow().unlock(); // 9 + 600 bytes: fits
    }

    @Test
    void prefixMayNotEscape() {
        for (String prefix : List.of("/locks/", "../", "a/../", "a/./b/", "..", "a/.")) {
            assertThatThrownBy(() -> S3LockProvider.builder()
                            .client(CLIENT)
                            .bucket("b")
                            .prefix(prefix)
                            .build())
                    .as(prefix)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("prefix");
        }
        assertThat(S3LockProvider.builder()
                        .client(CLIENT)
                        .bucket("b")
                        .prefix("")
                        .build())
                .isNotNull();
    }

    @Test
    void builderNamesWhatIsMissing() {
        assertThatThrownBy(() -> S3LockProvider.builder().bucket("b").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client");
        assertThatThrownBy(() -> S3LockProvider.builder().client(CLIENT).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bucket");
        assertThatThrownBy(() ->
                        S3LockProvider.builder().client(CLIENT).bucket(" ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bucket");
    }

    @Test
    void missingBucketIsAClearError() {
        CloudLockProvider provider =
                S3LockProvider.builder().client(CLIENT).bucket("no-such-bucket").build();
        assertThatThrownBy(() -> provider.lock(config("job")))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("'no-such-bucket'")
                .hasMessageContaining("does not exist")
                .isInstanceOf(LockStoreConfigurationException.class);
    }

    @Test
    void foreignObjectUnderThePrefixIsAClearError() {
        CLIENT.putObject(b -> b.bucket(S3Backends.BUCKET).key("shedlock/foreign"), RequestBody.fromString("hello"));
        assertThatThrownBy(() -> provider("a").lock(config("foreign")))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("not a cloudlock lock record")
                .hasMessageContaining("s3://" + S3Backends.BUCKET + "/shedlock/foreign")
                .as("neither a setup nor an availability problem: a record that is no lock record")
                .isExactlyInstanceOf(dev.cloudlock.spi.NotALockRecordException.class);
    }

    @Test
    void stateIsAReadableJsonBody() {
        FencedLock lock = provider("host/1 \"ü\"").tryLock(config("report")).orElseThrow();
        ResponseBytes<GetObjectResponse> raw =
                CLIENT.getObjectAsBytes(b -> b.bucket(S3Backends.BUCKET).key("shedlock/report"));
        assertThat(raw.response().contentType()).isEqualTo("application/json");
        String iso = "\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\"";
        assertThat(raw.asString(StandardCharsets.UTF_8))
                .matches("\\{\"name\":\"report\",\"lockUntil\":" + iso
                        + ",\"lockedAt\":" + iso + ",\"lockedBy\":\"host/1 \\\\\"ü\\\\\"\",\"owner\":\"[0-9a-f-]{36}\","
                        + "\"fence\":" + lock.fencingToken() + "}");
        lock.unlock();
    }

    /**
     * S3 answers 409 ConditionalRequestConflict when a concurrent conditional write won; the emulators answer 412.
     * A client whose real 412 answers are rewritten into 409s with a given error code shows how the store reads them.
     */
    @Test
    void conditionalRequestConflictIsALostRaceOtherConflictsAreErrors() {
        for (String code : List.of("ConditionalRequestConflict", "OperationAborted")) {
            String name = "conflict-" + code;
            CloudLockProvider previous = S3LockProvider.builder()
                    .client(S3Backends.client(S3Backends.moto(), new PreconditionFailedAs409(code)))
                    .bucket(S3Backends.BUCKET)
                    .build();
            previous.tryLock(config(name)).orElseThrow().unlock();
            provider("b").tryLock(config(name)).orElseThrow(); // the remembered ETag of 'previous' is now stale
            if (code.equals("ConditionalRequestConflict")) {
                assertThat(previous.lock(config(name)))
                        .as("lost race, then the GET shows the holder")
                        .isEmpty();
            } else {
                assertThatThrownBy(() -> previous.lock(config(name)))
                        .isInstanceOf(LockStoreException.class)
                        .hasMessageContaining("409")
                        .hasMessageContaining(code);
            }
        }
    }

    /** Rewrites every real 412 answer into a 409 with {@code code}. */
    private static final class PreconditionFailedAs409 implements ExecutionInterceptor {
        private final String code;

        PreconditionFailedAs409(String code) {
            this.code = code;
        }

        @Override
        public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            return context.httpResponse().statusCode() == 412
                    ? context.httpResponse().toBuilder().statusCode(409).build()
                    : context.httpResponse();
        }

        @Override
        public Optional<InputStream> modifyHttpResponseContent(
                Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            if (context.httpResponse().statusCode() != 412
                    && context.httpResponse().statusCode() != 409) {
                return context.responseBody();
            }
            String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>"
                    + "rewritten by the test</Message></Error>";
            return Optional.of(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void responsesFeedTheClockSkewMonitor() {
        CloudLockProvider provider = provider("a");
        assertThat(provider.store().clockSkewMonitor().orElseThrow().estimate())
                .as("before any request")
                .isEmpty();
        for (int i = 0; i < 5; i++) {
            provider.tryLock(config("skew")).orElseThrow().unlock();
        }
        var estimate =
                provider.store().clockSkewMonitor().orElseThrow().estimate().orElseThrow();
        assertThat(estimate.samples()).isGreaterThanOrEqualTo(2);
        // moto runs on this machine's clock: the true offset is 0, so 0 lies within the reported bound
        assertThat(estimate.offset().abs()).isLessThanOrEqualTo(estimate.errorBound());
    }

    /** The inverse of {@link ObjectKeys#encode}, here only to prove that no two names share a key. */
    private static String percentDecode(String encoded) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
