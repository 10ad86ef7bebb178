package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** The store set up from settings as the CLI and the starter give them, on a client of its own, on moto. */
class DynamoDbStoreTypeTest {

    /** The client of its own takes its credentials from the SDK's chain: here, its system properties. */
    @BeforeEach
    void credentials() {
        System.setProperty("aws.accessKeyId", "test");
        System.setProperty("aws.secretAccessKey", "test");
    }

    @AfterEach
    void noCredentials() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
    }

    /** AWS_DEFAULT_REGION, the AWS CLI's variable, was not read: "no AWS region", or the profile's region. */
    @Test
    void withoutARegionSettingOrAwsRegionTheAwsClisDefaultRegionIsUsed() {
        String table = "default-region-locks";
        StoreSettings settings = settings(Map.of("table-name", table), Map.of("AWS_DEFAULT_REGION", "eu-west-3"));

        StoreType.named("dynamodb", "--store").builder(settings).build().admin().init();

        assertThat(describe(Region.EU_WEST_3, table))
                .as("the table, in eu-west-3")
                .isTrue();
        assertThat(describe(Region.US_EAST_1, table)).as("not in us-east-1").isFalse();
    }

    /** The control: the region setting comes before AWS_DEFAULT_REGION. */
    @Test
    void theRegionSettingComesFirst() {
        StoreSettings withSetting = settings(
                Map.of("table-name", "setting-locks", "region", "eu-north-1"),
                Map.of("AWS_DEFAULT_REGION", "eu-west-3"));
        StoreType.named("dynamodb", "--store")
                .builder(withSetting)
                .build()
                .admin()
                .init();
        assertThat(describe(Region.EU_NORTH_1, "setting-locks")).isTrue();
        assertThat(describe(Region.EU_WEST_3, "setting-locks")).isFalse();
    }

    private static StoreSettings settings(Map<String, String> values, Map<String, String> environment) {
        String endpoint = DynamoDbBackends.moto();
        return new StoreSettings(
                "dynamodb",
                setting -> setting.name().equals("endpoint") ? endpoint : values.get(setting.name()),
                setting -> "--" + setting.name(),
                type -> null,
                environment::get);
    }

    private static boolean describe(Region region, String table) {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(DynamoDbBackends.moto()))
                .region(region)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            client.describeTable(b -> b.tableName(table));
            return true;
        } catch (ResourceNotFoundException absent) {
            return false;
        }
    }
}
