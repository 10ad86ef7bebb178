package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every invalid {@code cloudlock.*} value fails startup naming the property and the value, whichever part reads it:
 * the starter, Spring Boot's binder, ShedLock or a store's settings.
 */
class InvalidPropertiesTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "cloudlock.call-timeout | banana",
                "cloudlock.call-timeout | -1s",
                "cloudlock.attempt-timeout | 0s",
                "cloudlock.check-on-startup | maybe",
                "cloudlock.default-lock-at-most-for | banana",
                "cloudlock.default-lock-at-most-for | -5m",
                "cloudlock.scheduler-lock.enabled | maybe",
                "cloudlock.dynamodb.endpoint | 127.0.0.1:8000",
                "cloudlock.s3.endpoint | localhost:9000",
                "cloudlock.azure-blob.endpoint | blob.example",
                "cloudlock.azure-blob.endpoint | http://127.0.0.1:1/devstoreaccount1",
                "cloudlock.cosmos.endpoint | localhost:8081",
            })
    void anInvalidValueFailsStartupNamingThePropertyAndTheValue(String property, String value) {
        Map<String, Object> properties = new HashMap<>(Map.of(property, value));
        String store = property.split("\\.")[1];
        switch (store) {
            case "dynamodb" ->
                properties.putAll(Map.of("cloudlock.store", "dynamodb", "cloudlock.dynamodb.table-name", "t"));
            case "s3" -> properties.putAll(Map.of("cloudlock.store", "s3", "cloudlock.s3.bucket", "b"));
            case "azure-blob" ->
                properties.putAll(Map.of("cloudlock.store", "azure-blob", "cloudlock.azure-blob.container", "c"));
            case "cosmos" ->
                properties.putAll(Map.of(
                        "cloudlock.store",
                        "cosmos",
                        "cloudlock.cosmos.database",
                        "d",
                        "cloudlock.cosmos.container",
                        "c"));
            default -> properties.put("cloudlock.store", "in-memory");
        }
        properties.put("spring.main.web-application-type", "none");

        Throwable failure = catchThrowable(
                () -> StarterApps.start(SchedulerLockingTest.WithoutEnableSchedulerLock.class, properties)
                        .close());

        assertThat(failure).as("startup with %s=%s", property, value).isNotNull();
        assertThat(failure).hasStackTraceContaining(property).hasStackTraceContaining(value);
    }
}
