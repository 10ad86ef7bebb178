package dev.cloudlock.function.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.crac.Core;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The guard's own DynamoDB client, configured from the variables Lambda sets, on moto. */
class LambdaDynamoDbClientTest {

    private static final Map<String, String> LAMBDA_ENV = Map.of(
            "AWS_REGION", "eu-west-1",
            "AWS_ACCESS_KEY_ID", "key",
            "AWS_SECRET_ACCESS_KEY", "secret",
            "AWS_SESSION_TOKEN", "token",
            "AWS_ENDPOINT_URL_DYNAMODB", Emulators.moto().endpoint());

    @Test
    void aClientFromLambdasVariablesReachesTheConfiguredEndpoint() {
        try (DynamoDbClient client = LambdaDynamoDbClient.create(LAMBDA_ENV)) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("lambda-env-table")
                    .build()
                    .admin()
                    .init();

            assertThat(client.listTables().tableNames()).contains("lambda-env-table");
            assertThat(client.serviceClientConfiguration().region().id()).isEqualTo("eu-west-1");
        }
    }

    @Test
    void theAccessKeyVariablesAreTheCredentials() {
        var credentials = LambdaDynamoDbClient.credentials(LAMBDA_ENV).resolveCredentials();

        assertThat(credentials.accessKeyId()).isEqualTo("key");
        assertThat(credentials.secretAccessKey()).isEqualTo("secret");
    }

    @Test
    void withoutARegionTheMessageNamesTheVariableAndTheWayOutsideLambda() {
        assertThatThrownBy(() -> LambdaDynamoDbClient.create(Map.of("AWS_ACCESS_KEY_ID", "key")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("AWS_REGION")
                .hasMessageContaining("new LambdaTickGuard(settings, provider)");
    }

    @Test
    void withoutCredentialsTheMessageNamesBothKindsLambdaSets() {
        assertThatThrownBy(() -> LambdaDynamoDbClient.create(Map.of("AWS_REGION", "eu-west-1")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("AWS_ACCESS_KEY_ID")
                .hasMessageContaining("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    }

    /**
     * SnapStart's credentials come from a container credentials endpoint (here one served on 127.0.0.1 that hands
     * out a new key on every request); after a restore the provider is replaced, so the next request asks again.
     */
    @Test
    void underSnapStartTheCredentialsComeFromTheContainerEndpointAndAreLookedUpAfreshAfterARestore() throws Exception {
        AtomicInteger served = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/credentials", exchange -> {
            byte[] body = ("{\"AccessKeyId\":\"snap-key-" + served.incrementAndGet() + "\",\"SecretAccessKey\":\"s\","
                            + "\"Token\":\"t\",\"Expiration\":\""
                            + Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String uri = "http://127.0.0.1:" + server.getAddress().getPort() + "/credentials";
        // the SDK's container provider reads the endpoint from this property or the variable of the same meaning
        System.setProperty("aws.containerCredentialsFullUri", uri);
        try {
            Map<String, String> snapStartEnv =
                    Map.of("AWS_REGION", "eu-west-1", "AWS_CONTAINER_CREDENTIALS_FULL_URI", uri);
            LambdaCredentials credentials = new LambdaCredentials(() -> LambdaDynamoDbClient.credentials(snapStartEnv));

            String first = credentials.resolveCredentials().accessKeyId();
            String again = credentials.resolveCredentials().accessKeyId();
            credentials.afterRestore(Core.getGlobalContext());
            String afterRestore = credentials.resolveCredentials().accessKeyId();

            assertThat(first).isEqualTo("snap-key-1");
            assertThat(again).as("cached until a restore").isEqualTo("snap-key-1");
            assertThat(afterRestore).isEqualTo("snap-key-2");
        } finally {
            System.clearProperty("aws.containerCredentialsFullUri");
            server.stop(0);
        }
    }
}
