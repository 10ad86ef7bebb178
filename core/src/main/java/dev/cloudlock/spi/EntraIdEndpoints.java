package dev.cloudlock.spi;

import java.util.Locale;

/**
 * Azure Storage service URLs reached with Entra ID (Blob Storage, Table Storage), as a user writes them in a setting:
 * the one check and form both Azure storage stores give them before any request.
 */
public final class EntraIdEndpoints {

    private EntraIdEndpoints() {}

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
}
