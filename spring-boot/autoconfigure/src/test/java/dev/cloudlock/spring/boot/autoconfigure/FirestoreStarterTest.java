package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.firestore.FirestoreLockStore;
import dev.cloudlock.spi.LockStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;

/** The starter on Firestore (the official emulator), with the application's own {@code Firestore} bean. */
class FirestoreStarterTest extends StarterContract {

    @Override
    Class<?> application() {
        return FirestoreApp.class;
    }

    @Override
    String store() {
        return "firestore";
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        return Map.of("cloudlock.store", "firestore", "cloudlock.firestore.collection", "starter-locks");
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return FirestoreLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.empty(); // Firestore creates a collection with its first document
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(Firestore.class)).containsOnlyKeys("applicationFirestore");
    }
}
