package dev.cloudlock.firestore;

import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.tracing.ApiTracerFactory;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.FirestoreEmulatorOwner;
import io.grpc.ClientInterceptor;
import java.time.Duration;

/** Firestore clients on the shared Cloud Firestore emulator. */
final class FirestoreBackends {

    static final String COLLECTION = "shedlock";

    private static Firestore dead;

    private FirestoreBackends() {}

    /** A client of the shared emulator. */
    static Firestore client() {
        return options(emulatorHost()).build().getService();
    }

    /** A client of the shared emulator whose calls are traced by {@code tracers}. */
    static Firestore client(ApiTracerFactory tracers) {
        return options(emulatorHost()).setApiTracerFactory(tracers).build().getService();
    }

    /**
     * A client of the shared emulator whose channel runs every call through {@code interceptor}: plaintext with the
     * emulator's owner token, as the emulator host setting configures it ({@link FirestoreEmulatorOwner} says why).
     */
    static Firestore client(ClientInterceptor interceptor) {
        return FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setHost(emulatorHost())
                .setCredentials(FirestoreEmulatorOwner.INSTANCE)
                .setChannelProvider(InstantiatingGrpcChannelProvider.newBuilder()
                        .setEndpoint(emulatorHost())
                        .setChannelConfigurator(
                                channel -> channel.usePlaintext().intercept(interceptor))
                        .build())
                .build()
                .getService();
    }

    /**
     * A client of a port on 127.0.0.1 where nothing listens, with one attempt per call and a 3 s deadline: without
     * them the default retries take about a minute to give up.
     */
    static synchronized Firestore deadClient() {
        if (dead == null) {
            Duration deadline = Duration.ofSeconds(3);
            dead = options("127.0.0.1:" + EmulatorProcess.freePort())
                    .setRetrySettings(RetrySettings.newBuilder()
                            .setMaxAttempts(1)
                            .setTotalTimeoutDuration(deadline)
                            .setInitialRpcTimeoutDuration(deadline)
                            .setMaxRpcTimeoutDuration(deadline)
                            .build())
                    .build()
                    .getService();
        }
        return dead;
    }

    private static FirestoreOptions.Builder options(String host) {
        return FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setEmulatorHost(host);
    }

    private static String emulatorHost() {
        return "127.0.0.1:" + Emulators.firestore().port();
    }
}
