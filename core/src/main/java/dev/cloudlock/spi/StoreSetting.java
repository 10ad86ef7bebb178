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
 * @param description one or two sentences for the reference documentation and the command's help
 */
public record StoreSetting(
        String name, @Nullable String defaultValue, boolean required, Kind kind, String description) {

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

    public StoreSetting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "A setting's name is lower-case words joined by '-', such as table-name; was '" + name + "'");
        }
        if (required && defaultValue != null) {
            throw new IllegalArgumentException("The required setting " + name + " cannot have a default");
        }
    }

    /** A setting a provider cannot be built without. */
    public static StoreSetting required(String name, String description) {
        return new StoreSetting(name, null, true, Kind.TEXT, description);
    }

    /** A setting that may be left out; {@code defaultValue} is taken then ({@code null}: none). */
    public static StoreSetting optional(String name, @Nullable String defaultValue, String description) {
        return new StoreSetting(name, defaultValue, false, Kind.TEXT, description);
    }

    /** A URL that may be left out, such as an endpoint; a malformed one is refused even where it is not used. */
    public static StoreSetting url(String name, String description) {
        return new StoreSetting(name, null, false, Kind.URL, description);
    }

    /** A credential that may be left out, such as a connection string with its account key: never logged. */
    public static StoreSetting secret(String name, String description) {
        return new StoreSetting(name, null, false, Kind.SECRET, description);
    }
}
