package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.s3.S3LockProvider;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The CLI on S3 (moto): {@code init} checks the bucket, it does not create one. */
class S3CliIT extends CliContract {

    private static final String BUCKET = unique("cli-locks");

    private static S3Client client() {
        return S3Client.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    @BeforeAll
    static void createBucket() {
        client().createBucket(b -> b.bucket(BUCKET));
    }

    @Override
    protected List<String> storeArgs(String prefix) {
        return List.of(
                "--store",
                "s3",
                "--endpoint",
                Emulators.moto().endpoint(),
                "--bucket",
                BUCKET,
                "--prefix",
                prefix + "/");
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store", "s3", "--endpoint", "http://127.0.0.1:" + EmulatorProcess.freePort(), "--bucket", BUCKET);
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");
    }

    @Override
    protected boolean initCreates() {
        return false;
    }

    @Override
    protected CloudLockProvider provider(String prefix, String lockedBy) {
        return S3LockProvider.builder()
                .client(client())
                .bucket(BUCKET)
                .prefix(prefix + "/")
                .lockedBy(lockedBy)
                .build();
    }

    @Test
    void initOnAMissingBucketSaysHowToCreateItWithExitCode3() {
        CliProcess.Run missing = cli(
                List.of("--store", "s3", "--endpoint", Emulators.moto().endpoint(), "--bucket", unique("absent")),
                "init");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(3);
        assertThat(missing.err()).contains("does not exist", "aws s3 mb");
    }

    /**
     * An object under the prefix that is no lock record is skipped, not fatal: the table counts it after the locks,
     * and under {@code --json} it is in the page's {@code skipped}, as the endpoint reports it.
     */
    @Test
    void aStrayObjectIsReportedAsSkippedInTheTableAndInTheJson() {
        String prefix = unique("cli-stray");
        provider(prefix, "worker").tryLock(config("real-job")).orElseThrow().unlock();
        client().putObject(b -> b.bucket(BUCKET).key(prefix + "/not-a-lock"), RequestBody.fromString("hello"));

        CliProcess.Run table = cli(storeArgs(prefix), "list");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("real-job", "1 object under the lock prefix skipped", prefix + "/not-a-lock");

        CliProcess.Run json = cli(storeArgs(prefix), "list", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.err()).isEmpty();
        assertThat(json.out().strip())
                .startsWith("{\"locks\":[{\"name\":\"real-job\"")
                .contains("],\"skipped\":[{\"key\":\"not-a-lock\",\"reason\":\"S3 object");
    }

    /** A listing by a prefix without its '/' finds nothing, and says which prefix would list the locks. */
    @Test
    void aPrefixWithoutItsSlashThatListsNothingSaysSo() {
        String prefix = unique("cli-slash");
        provider(prefix, "worker").tryLock(config("real-job")).orElseThrow().unlock();
        List<String> args = new java.util.ArrayList<>(storeArgs(prefix));
        args.set(args.size() - 1, prefix);

        CliProcess.Run table = cli(args, "list");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("No locks in this store.");
        assertThat(table.err()).contains("--prefix " + prefix + " does not end with '/'", "--prefix " + prefix + "/?");

        CliProcess.Run slashed = cli(storeArgs(prefix), "list");
        assertThat(slashed.out()).contains("real-job");
        assertThat(slashed.err()).doesNotContain("does not end with");
    }
}
