package dev.cloudlock.azureblob;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.EntraId;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The store {@code azure-blob}. Its container is found in this order: on the account the {@code endpoint} or
 * {@code connection-string} setting names (or {@value BlobAccount#ENDPOINT}, {@value BlobAccount#CONNECTION_STRING});
 * else the application's {@link BlobContainerClient} of that container (its only one when no container is named),
 * or its {@link BlobServiceClient}; else on the account the function host's settings name
 * ({@value BlobAccount#WEB_JOBS_STORAGE_BLOB_URI}, {@value BlobAccount#WEB_JOBS_STORAGE}): {@link BlobAccount}'s
 * order, shared with the Azure Functions guard, with the application's clients between cloudlock's own settings and
 * the host's. An account given by its endpoint is reached with Entra ID: the application's {@link TokenCredential},
 * else {@code DefaultAzureCredential} from {@code com.azure:azure-identity}. Found through {@link StoreType#find};
 * applications do not use it directly.
 */
public final class AzureBlobStoreType extends AbstractStoreType {

    static final StoreSetting CONTAINER = StoreSetting.optional(
                    "container",
                    null,
                    "The container of the lock blobs; it must exist. Required unless the application has one"
                            + " BlobContainerClient and no account is set for the locks: that client's container is"
                            + " then used.")
            .withStandaloneDescription("The container of the lock blobs; it must exist. Required.");
    static final StoreSetting PREFIX = StoreSetting.optional(
            "prefix",
            AzureBlobLockProvider.DEFAULT_PREFIX,
            "The blob name prefix of the lock blobs; empty for the container's root.");
    static final StoreSetting ENDPOINT = StoreSetting.optional(
                    "endpoint",
                    null,
                    "The blob service URL (https://ACCOUNT.blob.core.windows.net), reached with Entra ID. Stands for "
                            + BlobAccount.ENDPOINT + ", and comes first.")
            .asUrl();
    static final StoreSetting CONNECTION_STRING = StoreSetting.secret(
            "connection-string",
            "A connection string of the storage account, used when no endpoint is set. Stands for "
                    + BlobAccount.CONNECTION_STRING + ".");

    public AzureBlobStoreType() {
        super("azure-blob", "Azure Blob Storage", CONTAINER, PREFIX, ENDPOINT, CONNECTION_STRING);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        return AzureBlobLockProvider.builder().container(container(settings)).prefix(settings.require(PREFIX));
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the container named by " + settings.spelling(CONTAINER) + " (or by the application's"
                + " BlobContainerClient), e.g. with az storage container create, cloudlock init or the"
                + " infra-terraform module; or correct the setting. With Entra ID the caller's identity needs the"
                + " Storage Blob Data Contributor role on it";
    }

    private static BlobContainerClient container(StoreSettings settings) {
        Function<String, @Nullable String> account = name -> account(name, settings);
        Optional<BlobAccount> own = BlobAccount.lookupOwn(account);
        Optional<String> name = settings.get(CONTAINER);
        if (name.isEmpty()) {
            Optional<BlobContainerClient> only =
                    own.isPresent() ? Optional.empty() : settings.client(BlobContainerClient.class);
            return only.orElseThrow(() -> new IllegalArgumentException(
                    settings.spelling(CONTAINER) + " is not set: set it to the lock container (it may be"
                            + " left out only when the application has one BlobContainerClient and sets no"
                            + " account for the locks)"));
        }
        if (own.isPresent()) {
            return client(own.get(), settings).getBlobContainerClient(name.get());
        }
        for (BlobContainerClient application : settings.clients(BlobContainerClient.class)) {
            if (application.getBlobContainerName().equals(name.get())) {
                return application;
            }
        }
        Optional<BlobServiceClient> application = settings.client(BlobServiceClient.class);
        if (application.isPresent()) {
            return application.get().getBlobContainerClient(name.get());
        }
        BlobAccount host = BlobAccount.lookup(account)
                .orElseThrow(() -> new IllegalArgumentException("The azure-blob store needs a storage account, and"
                        + " none is configured: set " + settings.spelling(CONNECTION_STRING) + ", or "
                        + settings.spelling(ENDPOINT) + " to reach it with Entra ID; or set one of "
                        + BlobAccount.SETTINGS + " as the Azure Functions guard reads them; or give the application"
                        + " a BlobServiceClient (Spring Cloud Azure declares one with"
                        + " spring.cloud.azure.storage.blob.*)"));
        return client(host, settings).getBlobContainerClient(name.get());
    }

    /** A setting of {@link BlobAccount}: the store setting that stands for it, else the environment's. */
    private static @Nullable String account(String name, StoreSettings settings) {
        Optional<String> setting = switch (name) {
            case BlobAccount.ENDPOINT -> settings.get(ENDPOINT);
            case BlobAccount.CONNECTION_STRING -> settings.get(CONNECTION_STRING);
            default -> Optional.empty();
        };
        return setting.or(() -> settings.environment(name)).orElse(null);
    }

    private static BlobServiceClient client(BlobAccount account, StoreSettings settings) {
        String endpoint = account.endpoint();
        if (endpoint != null) {
            boolean ownSetting = account.setting().equals(BlobAccount.ENDPOINT)
                    && settings.get(ENDPOINT).isPresent();
            EntraId.requireHttps(endpoint, ownSetting ? settings.spelling(ENDPOINT) : account.setting(), "blob");
        }
        return account.configure(new BlobServiceClientBuilder(), () -> entraId(settings))
                .buildClient();
    }

    /**
     * The application's {@code TokenCredential}, else Azure Identity's {@code DefaultAzureCredential}: a lambda, not a
     * method reference, so that {@link AzureIdentity} is loaded only when the credential is asked for.
     */
    private static TokenCredential entraId(StoreSettings settings) {
        return EntraId.credential(
                settings,
                TokenCredential.class,
                () -> AzureIdentity.defaultCredential(),
                "Blob Storage",
                CONNECTION_STRING);
    }

    /** Loaded only when an Entra ID credential is needed, so that azure-identity may be absent otherwise. */
    private static final class AzureIdentity {
        static TokenCredential defaultCredential() {
            return new DefaultAzureCredentialBuilder().build();
        }
    }
}
