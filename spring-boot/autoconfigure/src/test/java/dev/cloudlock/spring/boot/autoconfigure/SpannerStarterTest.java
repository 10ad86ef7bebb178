package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spanner.SpannerLockStore;
import dev.cloudlock.spi.LockStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The starter on the Cloud Spanner emulator, with the application's own {@code Spanner} bean and the instance and
 * database the properties name (created here once, with the lock table).
 */
class SpannerStarterTest extends StarterContract {

    static final String PROJECT = "starter-project";
    static final String INSTANCE = "starter";
    static final String DATABASE = "locks";

    private static boolean created;

    @Override
    Class<?> application() {
        return SpannerApp.class;
    }

    @Override
    String store() {
        return "spanner";
    }

    static Spanner client() {
        return SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(Emulators.spannerHost())
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false)
                .build()
                .getService();
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        synchronized (SpannerStarterTest.class) {
            if (!created) {
                try (Spanner spanner = client()) {
                    spanner.getInstanceAdminClient()
                            .createInstance(InstanceInfo.newBuilder(InstanceId.of(PROJECT, INSTANCE))
                                    .setInstanceConfigId(InstanceConfigId.of(PROJECT, "emulator-config"))
                                    .setNodeCount(1)
                                    .setDisplayName(INSTANCE)
                                    .build())
                            .get();
                    spanner.getDatabaseAdminClient()
                            .createDatabase(INSTANCE, DATABASE, List.of(SpannerLockStore.DDL))
                            .get();
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e);
                }
                created = true;
            }
        }
        return properties("shedlock");
    }

    private static Map<String, Object> properties(String table) {
        return Map.of(
                "cloudlock.store", "spanner",
                "cloudlock.spanner.instance", INSTANCE,
                "cloudlock.spanner.database", DATABASE,
                "cloudlock.spanner.table", table);
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return SpannerLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("nosuchtable"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(Spanner.class)).containsOnlyKeys("applicationSpanner");
        // neither project nor emulator is set for the locks: the application's client is the only way in
        assertThat(context.getEnvironment().getProperty("cloudlock.spanner.endpoint"))
                .isNull();
        assertThat(context.getEnvironment().getProperty("cloudlock.spanner.project"))
                .isNull();
    }

    /** {@link LockingApp} with a {@code Spanner} client of the application's own, on the emulator. */
    @Configuration(proxyBeanMethods = false)
    @Import(LockingApp.class)
    static class SpannerApp {

        @Bean(destroyMethod = "close")
        Spanner applicationSpanner() {
            return client();
        }
    }
}
