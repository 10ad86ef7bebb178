package dev.cloudlock.spi;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One setting a {@link StoreType} takes: its name, its default and what it means. The same name is the property
 * {@code cloudlock.<store>.<name>} in Spring Boot and the option {@code --<name>} of the {@code cloudlock} command.
 *
 * @param name lower-case words joined by {@code -}, such as {@code table-name}
 * @param defaultValue the value taken when none is given; {@code null} when the setting has none
 * @param required whether a provider cannot be built without a value (a required setting has no default)
 * @param kind what the value is: text, a URL (checked whenever it is given, even where the store does not use it) or a
 *     credential (never logged or shown)
 * @param description one or two sentences for an application's reference documentation (Spring Boot's properties);
 *     for a setting of the client the store builds itself, ending in {@link #OWN_CLIENT_NOTE}
 * @param standaloneDescription the same for a caller that never has the application's clients, such as the
 *     {@code cloudlock} command's help: without the words about them ({@link #ofOwnClient},
 *     {@link #withStandaloneDescription})
 */
public record StoreSetting(
        String name,
        @Nullable String defaultValue,
        boolean required,
        Kind kind,
        String description,
        String standaloneDescription) {

    /** What a setting's value is. */
    public enum Kind {
        /** Plain text, such as a table name. */
        TEXT,
        /** A URL with a scheme and a host, such as {@code http://127.0.0.1:8000}. */
        URL,
        /** A credential, such as a connection string with an account key: never logged or shown. */
        SECRET
    }

    /** Lower-case words joined by {@code -}: the form of a setting's and a store's name. */
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    /**
     * The end of the description of a setting of the client the store builds itself ({@link #ofOwnClient}): words for
     * an application, which may have its own client, that mean nothing to a caller that never has one.
     */
    public static final String OWN_CLIENT_NOTE = "; ignored when the application has its own client.";

    public StoreSetting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(standaloneDescription, "standaloneDescription");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "A setting's name is lower-case words joined by '-', such as table-name; was '" + name + "'");
        }
        if (required && defaultValue != null) {
            throw new IllegalArgumentException("The required setting " + name + " cannot have a default");
        }
    }

    /** A text setting described alike for an application and the command. */
    public StoreSetting(String name, @Nullable String defaultValue, boolean required, String description) {
        this(name, defaultValue, required, Kind.TEXT, description, description);
    }

    /** A setting a provider cannot be built without. */
    public static StoreSetting required(String name, String description) {
        return new StoreSetting(name, null, true, description);
    }

    /** A setting that may be left out; {@code defaultValue} is taken then ({@code null}: none). */
    public static StoreSetting optional(String name, @Nullable String defaultValue, String description) {
        return new StoreSetting(name, defaultValue, false, description);
    }

    /** A credential that may be left out, such as a connection string with its account key: never logged. */
    public static StoreSetting secret(String name, String description) {
        return new StoreSetting(name, null, false, Kind.SECRET, description, description);
    }

    /**
     * An optional setting of the client the store builds when the application has none (an endpoint, a region):
     * its description is {@code description} (without a closing period) and {@link #OWN_CLIENT_NOTE}.
     */
    public static StoreSetting ofOwnClient(String name, @Nullable String defaultValue, String description) {
        return new StoreSetting(name, defaultValue, false, Kind.TEXT, description + OWN_CLIENT_NOTE, description + ".");
    }

    /** This setting, whose value is a URL: a malformed one is refused even where it is not used. */
    public StoreSetting asUrl() {
        return new StoreSetting(name, defaultValue, required, Kind.URL, description, standaloneDescription);
    }

    /**
     * This setting, described to a caller that never has the application's clients (the {@code cloudlock} command)
     * as {@code standaloneDescription}, when its {@link #description} speaks of those clients otherwise than by
     * {@link #OWN_CLIENT_NOTE}.
     */
    public StoreSetting withStandaloneDescription(String standaloneDescription) {
        return new StoreSetting(name, defaultValue, required, kind, description, standaloneDescription);
    }
}
