package dev.cloudlock.emulators;

import com.google.auth.Credentials;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The Cloud Firestore emulator's owner token as credentials, sent as request metadata: for a client of the emulator
 * built on a channel of one's own (to put the testkit's {@code WireFaultInterceptor} on it). The emulator-host
 * setting would open a channel of the library's own, and {@code NoCredentials} makes the library do the same, so
 * neither can carry an interceptor.
 */
public final class FirestoreEmulatorOwner extends Credentials {

    /** The one instance: it holds no state. */
    public static final FirestoreEmulatorOwner INSTANCE = new FirestoreEmulatorOwner();

    private FirestoreEmulatorOwner() {}

    @Override
    public String getAuthenticationType() {
        return "Bearer";
    }

    @Override
    public Map<String, List<String>> getRequestMetadata(URI uri) {
        return Map.of("Authorization", List.of("Bearer owner"));
    }

    @Override
    public boolean hasRequestMetadata() {
        return true;
    }

    @Override
    public boolean hasRequestMetadataOnly() {
        return true;
    }

    @Override
    public void refresh() {}
}
