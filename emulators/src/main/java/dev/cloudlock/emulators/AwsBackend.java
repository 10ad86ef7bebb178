package dev.cloudlock.emulators;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The emulator that serves DynamoDB and S3 to the contract classes that run on moto, chosen per test JVM by the
 * system property {@value #PROPERTY}: moto by default, LocalStack (in a Docker container, through Testcontainers)
 * with {@code -Dcloudlock.backend=localstack}. A value that names neither fails before anything starts, and so does
 * LocalStack where no Docker engine answers: a requested backend never silently turns into another, or into skipped
 * tests.
 */
public enum AwsBackend {
    /** moto server behind our serialising launcher ({@link Emulators#moto()}): needs Python, no Docker. */
    MOTO,
    /** LocalStack's {@code dynamodb} and {@code s3} services in one container: needs a Docker engine. */
    LOCALSTACK;

    /** The system property that chooses the backend. */
    public static final String PROPERTY = "cloudlock.backend";

    /** The backend this JVM's {@value #PROPERTY} names. */
    public static AwsBackend selected() {
        return named(System.getProperty(PROPERTY));
    }

    /**
     * The backend {@code value} names, ignoring case and surrounding blanks; unset or blank is moto.
     *
     * @throws IllegalArgumentException when {@code value} names no backend, listing the valid values
     */
    public static AwsBackend named(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return MOTO;
        }
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (AwsBackend backend : values()) {
            if (backend.value().equals(wanted)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + " names no backend of the DynamoDB and S3"
                + " tests; valid values: "
                + Arrays.stream(values()).map(AwsBackend::value).collect(Collectors.joining(", "))
                + " (moto when unset)");
    }

    /** The property's value for this backend: {@code moto} or {@code localstack}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
