package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The CLI on DynamoDB (moto), credentials and region from the environment as the SDK's chain reads them. */
class DynamoDbCliIT extends CliContract {

    @Override
    protected List<String> storeArgs(String table) {
        return List.of("--store", "dynamodb", "--endpoint", Emulators.moto().endpoint(), "--table-name", table);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "dynamodb",
                "--endpoint",
                "http://127.0.0.1:" + EmulatorProcess.freePort(),
                "--table-name",
                "shedlock");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Test
    void aMissingTableIsExitCode3WithTheFixInTheCommandsOptions() {
        CliProcess.Run missing = cli(
                List.of(
                        "--store",
                        "dynamodb",
                        "--endpoint",
                        Emulators.moto().endpoint(),
                        "--table-name",
                        unique("absent")),
                "show",
                "nightly-report");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(3);
        assertThat(missing.err()).contains("does not exist", "Fix: Create the table named by --table-name");
    }

    @Override
    protected CloudLockProvider provider(String table, String lockedBy) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .lockedBy(lockedBy)
                .build();
    }
}
