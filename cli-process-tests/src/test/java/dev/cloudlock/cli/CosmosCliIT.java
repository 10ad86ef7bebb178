package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CLI on the Cosmos DB launcher over TLS (the process trusts the launcher's certificate through the standard
 * {@code javax.net.ssl} properties, as an operator's JVM would trust a private CA); the key comes from
 * {@value #KEY_VARIABLE}, the variable the cosmos store reads. {@code init} creates the container.
 */
class CosmosCliIT extends CliContract {

    private static final String KEY_VARIABLE = "CLOUDLOCK_COSMOS_KEY";
    private static final String DATABASE = "cloudlock";
    private static CosmosClient client;

    @BeforeAll
    static void createDatabase() {
        Emulators.cosmosTrustStore();
        client = new CosmosClientBuilder()
                .endpoint(endpoint())
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false)
                .buildClient();
        client.createDatabaseIfNotExists(DATABASE);
    }

    private static String endpoint() {
        return "https://127.0.0.1:" + Emulators.cosmos().port();
    }

    @Override
    protected List<String> storeArgs(String container) {
        return List.of("--store", "cosmos", "--endpoint", endpoint(), "--database", DATABASE, "--container", container);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "cosmos",
                "--endpoint",
                "https://127.0.0.1:" + EmulatorProcess.freePort(),
                "--database",
                DATABASE,
                "--container",
                "shedlock");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of(KEY_VARIABLE, Emulators.COSMOS_KEY);
    }

    @Override
    protected List<String> jvmOptions() {
        return List.of(
                "-Djavax.net.ssl.trustStore=" + Emulators.cosmosTrustStore(),
                "-Djavax.net.ssl.trustStoreType=PKCS12",
                "-Djavax.net.ssl.trustStorePassword=" + Emulators.COSMOS_TLS_PASSWORD);
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Override
    protected CloudLockProvider provider(String container, String lockedBy) {
        return CosmosLockProvider.builder()
                .container(client.getDatabase(DATABASE), container)
                .lockedBy(lockedBy)
                .build();
    }

    @Test
    void initOnAMissingDatabaseNamesItAndHowToCreateIt() {
        String database = unique("absent-db");
        CliProcess.Run missing = cli(
                List.of("--store", "cosmos", "--endpoint", endpoint(), "--database", database, "--container", "locks"),
                "init");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(3);
        assertThat(missing.err())
                .contains(
                        "database '" + database + "' does not exist",
                        "init creates the lock container, not its database",
                        "az cosmosdb sql database create --name " + database);
    }
}
