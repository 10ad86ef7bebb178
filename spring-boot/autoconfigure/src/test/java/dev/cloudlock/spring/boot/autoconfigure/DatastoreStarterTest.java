package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.datastore.DatastoreLockStore;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The starter on the Datastore emulator, with the application's own {@code Datastore} bean. */
class DatastoreStarterTest extends StarterContract {

    @Override
    Class<?> application() {
        return DatastoreApp.class;
    }

    @Override
    String store() {
        return "datastore";
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        return Map.of("cloudlock.store", "datastore", "cloudlock.datastore.kind", "starter_locks");
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return DatastoreLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.empty(); // Datastore creates a kind with its first entity
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(Datastore.class)).containsOnlyKeys("applicationDatastore");
        // neither project nor emulator is set for the locks: the application's client is the only way in
        assertThat(context.getEnvironment().getProperty("cloudlock.datastore.endpoint"))
                .isNull();
    }

    /** {@link LockingApp} with a {@code Datastore} client of the application's own, on the emulator. */
    @Configuration(proxyBeanMethods = false)
    @Import(LockingApp.class)
    static class DatastoreApp {

        @Bean
        Datastore applicationDatastore() {
            return DatastoreOptions.newBuilder()
                    .setProjectId(Emulators.DATASTORE_PROJECT)
                    .setHost("http://127.0.0.1:" + Emulators.datastore().port())
                    .setCredentials(NoCredentials.getInstance())
                    .setTransportOptions(DatastoreOptions.getDefaultHttpTransportOptions())
                    .build()
                    .getService();
        }
    }
}
