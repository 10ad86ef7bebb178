package dev.cloudlock.emulators;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Where each store runs on this machine: the emulator that serves it, started (or reused) here, and the settings,
 * environment and system properties that reach it, in the words of the store's own settings ({@code endpoint},
 * {@code table-name}). It names emulators, never store classes, so a store module left out of a build needs no edit
 * here or in what runs on it (the demo): its name simply finds no store.
 */
public final class LocalStores {

    /** The emulator of one store and how to reach it. */
    public record LocalStore(
            String store,
            String description,
            EmulatorProcess emulator,
            Map<String, String> settings,
            Map<String, String> environment,
            Map<String, String> systemProperties) {}

    /** The stores there is an emulator of here. */
    public static final java.util.Set<String> NAMES =
            java.util.Set.of("dynamodb", "s3", "firestore", "datastore", "azure-blob", "azure-table", "cosmos");

    private LocalStores() {}

    /**
     * The emulator of {@code store}, started, with its lock table, bucket or database made where the store's own
     * setup ({@code admin().init()}) does not make it; empty for a store this machine has no emulator of.
     */
    public static Optional<LocalStore> start(String store) {
        Map<String, String> aws = Map.of("aws.accessKeyId", "local", "aws.secretAccessKey", "local");
        return switch (store) {
            case "dynamodb" -> {
                EmulatorProcess moto = Emulators.moto();
                yield Optional.of(new LocalStore(
                        store,
                        "moto",
                        moto,
                        Map.of("endpoint", moto.endpoint(), "region", "us-east-1", "table-name", "shedlock"),
                        Map.of(),
                        aws));
            }
            case "s3" -> {
                EmulatorProcess moto = Emulators.moto();
                send(
                        HttpClient.newHttpClient(),
                        HttpRequest.newBuilder(URI.create(moto.endpoint() + "/demo-locks"))
                                .PUT(HttpRequest.BodyPublishers.noBody()));
                yield Optional.of(new LocalStore(
                        store,
                        "moto",
                        moto,
                        Map.of("endpoint", moto.endpoint(), "region", "us-east-1", "bucket", "demo-locks"),
                        Map.of(),
                        aws));
            }
            case "firestore" -> {
                EmulatorProcess firestore = Emulators.firestore();
                yield Optional.of(new LocalStore(
                        store,
                        "the Cloud Firestore emulator",
                        firestore,
                        Map.of("endpoint", "127.0.0.1:" + firestore.port(), "project", Emulators.FIRESTORE_PROJECT),
                        Map.of(),
                        Map.of()));
            }
            case "datastore" -> {
                EmulatorProcess datastore = Emulators.datastore();
                yield Optional.of(new LocalStore(
                        store,
                        "the Cloud Datastore emulator",
                        datastore,
                        Map.of("endpoint", "127.0.0.1:" + datastore.port(), "project", Emulators.DATASTORE_PROJECT),
                        Map.of(),
                        Map.of()));
            }
            case "azure-blob" -> {
                EmulatorProcess azurite = Emulators.azurite();
                yield Optional.of(new LocalStore(
                        store,
                        "Azurite",
                        azurite,
                        Map.of(
                                "connection-string",
                                Emulators.azuriteConnectionString(azurite),
                                "container",
                                "demo-locks"),
                        Map.of(),
                        Map.of()));
            }
            case "azure-table" -> {
                EmulatorProcess azurite = Emulators.azuriteTable();
                yield Optional.of(new LocalStore(
                        store,
                        "Azurite's table service",
                        azurite,
                        Map.of(
                                "connection-string",
                                Emulators.azuriteTableConnectionString(azurite.endpoint()),
                                "table",
                                "demolocks"),
                        Map.of(),
                        Map.of()));
            }
            case "cosmos" -> {
                EmulatorProcess cosmos = Emulators.cosmos();
                String endpoint = "https://127.0.0.1:" + cosmos.port();
                createCosmosDatabase(endpoint, "demo");
                yield Optional.of(new LocalStore(
                        store,
                        "@vercel/cosmosdb-server behind our launcher",
                        cosmos,
                        Map.of("endpoint", endpoint, "database", "demo", "container", "shedlock"),
                        Map.of("CLOUDLOCK_COSMOS_KEY", Emulators.COSMOS_KEY),
                        Map.of(
                                // trust exactly the launcher's certificate (TLS validation stays on)
                                "javax.net.ssl.trustStore",
                                Emulators.cosmosTrustStore().toString(),
                                "javax.net.ssl.trustStoreType",
                                "PKCS12",
                                "javax.net.ssl.trustStorePassword",
                                Emulators.COSMOS_TLS_PASSWORD)));
            }
            default -> Optional.empty();
        };
    }

    /** Creates the database (the lock store's setup creates the container in it, not the database itself). */
    private static void createCosmosDatabase(String endpoint, String database) {
        try (InputStream trusted = Files.newInputStream(Emulators.cosmosTrustStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(trusted, Emulators.COSMOS_TLS_PASSWORD.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).build();
            send(
                    client,
                    HttpRequest.newBuilder(URI.create(endpoint + "/dbs"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + database + "\"}")));
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("Could not create the Cosmos DB database " + database, e);
        }
    }

    private static void send(HttpClient client, HttpRequest.Builder request) {
        try {
            HttpResponse<String> response =
                    client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            // 409: the database or bucket is there already (an earlier demo in this JVM made it)
            if (response.statusCode() / 100 != 2 && response.statusCode() != 409) {
                throw new IllegalStateException(response.request().method() + " "
                        + response.request().uri() + " answered " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException(request.build().uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
