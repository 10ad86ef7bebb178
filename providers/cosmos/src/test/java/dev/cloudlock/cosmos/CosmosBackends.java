package dev.cloudlock.cosmos;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

/** Cosmos DB clients on launcher-started servers, trusting the launcher's certificate (TLS validation on). */
final class CosmosBackends {

    static final String DATABASE = "cloudlock";
    static final String CONTAINER = "shedlock";

    private static CosmosClient shared;
    private static CosmosContainer gone;

    private CosmosBackends() {}

    /** The lock container ({@code /id}) on the shared server, created on first use. */
    static synchronized CosmosContainer container() {
        if (shared == null) {
            shared = client(Emulators.cosmos());
            shared.createDatabaseIfNotExists(DATABASE);
            shared.getDatabase(DATABASE)
                    .createContainerIfNotExists(
                            new CosmosContainerProperties(CONTAINER, CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH));
        }
        return shared.getDatabase(DATABASE).getContainer(CONTAINER);
    }

    /** A container that does not exist, in the lock database on the shared server. */
    static synchronized CosmosContainer missingContainer() {
        container(); // the database exists
        return shared.getDatabase(DATABASE).getContainer("no-such-container");
    }

    /**
     * A lock container whose server has gone away: created on a launcher of its own, which is then stopped, so every
     * request meets a closed port.
     */
    static synchronized CosmosContainer unreachableContainer() {
        if (gone == null) {
            try (EmulatorProcess server = Emulators.startCosmos(List.of())) {
                CosmosClient client = client(server);
                client.createDatabaseIfNotExists(DATABASE);
                client.getDatabase(DATABASE).createContainerIfNotExists(CONTAINER, "/id");
                gone = client.getDatabase(DATABASE).getContainer(CONTAINER);
            }
        }
        return gone;
    }

    /** A client of {@code server}, as docs/stores/cosmos.md configures one for the emulator. */
    static CosmosClient client(EmulatorProcess server) {
        Path trustStore = Emulators.cosmosTrustStore();
        if (!trustStore.toString().equals(System.getProperty("javax.net.ssl.trustStore"))) {
            throw new IllegalStateException("Run with -Djavax.net.ssl.trustStore=" + trustStore + " (the module's"
                    + " surefire configuration sets it): the SDK must trust the launcher's certificate");
        }
        return builder("https://127.0.0.1:" + server.port()).buildClient();
    }

    static CosmosClientBuilder builder(String endpoint) {
        return new CosmosClientBuilder()
                .endpoint(endpoint)
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false);
    }

    /** Requests the server has served over TLS so far, as counted by the launcher. */
    static long requestsServed(EmulatorProcess server) {
        String body = harness(server, "/cloudlock/requests");
        return Long.parseLong(body.replaceAll("^\\{\"total\":(\\d+).*$", "$1"));
    }

    private static String harness(EmulatorProcess server, String path) {
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.endpoint() + path))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
