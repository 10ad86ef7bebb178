package dev.cloudlock.spring.boot.autoconfigure;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.emulators.Emulators;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link LockingApp} with a {@code Firestore} bean of the application's own, on the emulator. */
@Configuration(proxyBeanMethods = false)
@Import(LockingApp.class)
class FirestoreApp {

    @Bean(destroyMethod = "close")
    Firestore applicationFirestore() {
        return FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setEmulatorHost("127.0.0.1:" + Emulators.firestore().port())
                .build()
                .getService();
    }
}
