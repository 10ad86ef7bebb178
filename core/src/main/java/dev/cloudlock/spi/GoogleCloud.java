package dev.cloudlock.spi;

import org.jspecify.annotations.Nullable;

/**
 * What the Google Cloud stores (Firestore, Datastore, Spanner) tell a user whose environment gives their own client
 * no credentials or no project, one wording for all: where the client looked, and what to set, in the words the user
 * sets it with.
 */
public final class GoogleCloud {

    private GoogleCloud() {}

    /**
     * The error for Application Default Credentials that found none, before any request.
     *
     * @param endpoint the spelling of the store's emulator setting ({@code --endpoint},
     *     {@code cloudlock.firestore.endpoint}), which may be the emulator variable itself
     * @param emulatorVariable the client's own emulator variable, such as {@code FIRESTORE_EMULATOR_HOST}
     */
    public static IllegalArgumentException noCredentials(String endpoint, String emulatorVariable) {
        return new IllegalArgumentException("no Google credentials: Application Default Credentials"
                + " (GOOGLE_APPLICATION_CREDENTIALS, gcloud's application-default login, the metadata server)"
                + " found none; set GOOGLE_APPLICATION_CREDENTIALS to a key file, run gcloud auth"
                + " application-default login, or set "
                + (endpoint.equals(emulatorVariable) ? emulatorVariable : endpoint + " or " + emulatorVariable)
                + " for an emulator");
    }

    /**
     * The error for a client without a project, before any request.
     *
     * @param project the spelling of the store's project setting
     * @param of what the project holds, such as {@code the Firestore database}
     */
    public static IllegalArgumentException noProject(String project, String of, @Nullable Exception cause) {
        return new IllegalArgumentException(
                project + " is not set, and the environment names no Google Cloud project (GOOGLE_CLOUD_PROJECT, the"
                        + " credentials): set it to the project of " + of + " (any id for an emulator)",
                cause);
    }
}
