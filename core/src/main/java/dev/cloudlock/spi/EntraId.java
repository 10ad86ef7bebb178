package dev.cloudlock.spi;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * How the Azure storage stores (Blob Storage, Table Storage) reach an account with Entra ID, one rule for both: the
 * endpoint as the user wrote it in a setting, checked before any request, and the credential sent to it.
 */
public final class EntraId {

    private EntraId() {}

    /**
     * {@code endpoint} trimmed and without the trailing {@code /} the platform's own values carry (Terraform's
     * {@code primary_blob_endpoint} ends in one; the SDKs read a path after the host as a container or table name).
     *
     * @param setting the endpoint's setting as the user wrote it ({@code CLOUDLOCK_AZURE_BLOB_ENDPOINT},
     *     {@code cloudlock.azure-table.endpoint}, {@code --endpoint}), for the message
     * @param service the storage service, {@code blob} or {@code table}, for the message
     * @throws IllegalArgumentException naming {@code setting}, when the endpoint is not {@code https}: Entra ID's
     *     bearer token is sent only over https, and such an endpoint would fail only at the first request, without
     *     naming the setting
     */
    public static String requireHttps(String endpoint, String setting, String service) {
        String url = endpoint.trim();
        if (!url.toLowerCase(Locale.ROOT).startsWith("https://")) {
            throw new IllegalArgumentException(setting + " is " + url + ": a " + service + " endpoint is reached with"
                    + " Entra ID, whose token is only sent over https. Set it to the account's https:// URL, or, for"
                    + " a local emulator such as Azurite, give its connection string instead");
        }
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }

    /**
     * The credential for an account reached with Entra ID (an endpoint and no connection string): the application's
     * own ({@code type} among the store's {@link StoreSettings#client clients}), else {@code defaultCredential}, which
     * the store gives as Azure Identity's {@code DefaultAzureCredential} and which loads that library only now, so that
     * a store reached with a connection string needs none.
     *
     * @param service the store, {@code Blob Storage} or {@code Table Storage}, for the message
     * @param connectionString the store's connection string setting, named in the message as the other way
     * @throws IllegalArgumentException naming {@code com.azure:azure-identity} and the ways around it, when the
     *     application gives no credential and that library is not on the class path
     */
    public static <T> T credential(
            StoreSettings settings,
            Class<T> type,
            Supplier<T> defaultCredential,
            String service,
            StoreSetting connectionString) {
        return settings.client(type).orElseGet(() -> {
            try {
                return defaultCredential.get();
            } catch (NoClassDefFoundError absent) {
                throw new IllegalArgumentException(
                        "The " + service + " account is to be reached with Entra ID (an endpoint and no connection"
                                + " string), and com.azure:azure-identity is not on the class path: add that"
                                + " dependency (for DefaultAzureCredential: a managed identity, the environment,"
                                + " Azure CLI), or give the application a TokenCredential, or set "
                                + settings.spelling(connectionString),
                        absent);
            }
        });
    }
}
