package dev.cloudlock.spi;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The values a user gave a {@link StoreType}'s settings, read where the user wrote them (Spring Boot properties, the
 * command's options), and the SDK clients the application already has. A store reads every value through this class,
 * so that a missing or bad value is reported in the words the user wrote it in ({@link #spelling}), before any
 * request.
 */
public final class StoreSettings {

    private final String store;
    private final Function<StoreSetting, @Nullable String> values;
    private final Function<StoreSetting, String> spelling;
    private final Function<Class<?>, @Nullable Object> clients;
    private final Function<Class<?>, List<?>> allClients;
    private final Function<String, @Nullable String> environment;

    /**
     * Settings for a caller that knows at most one client of each type, such as the {@code cloudlock} command.
     *
     * @param store the store's name, as the user chose it
     * @param values the value the user gave a setting, {@code null} or blank when none
     * @param spelling how the user writes a setting: {@code cloudlock.dynamodb.table-name}, {@code --table-name}
     * @param clients the application's one client of a type (a Spring bean), {@code null} when it has none
     * @param environment an environment variable or platform setting by name, {@code null} when unset
     */
    public StoreSettings(
            String store,
            Function<StoreSetting, @Nullable String> values,
            Function<StoreSetting, String> spelling,
            Function<Class<?>, @Nullable Object> clients,
            Function<String, @Nullable String> environment) {
        this(store, values, spelling, clients, type -> client(clients, type), environment);
    }

    /**
     * Settings for a caller whose application may have several clients of a type (the Spring Boot starter).
     *
     * @param clients the application's one client of a type (its only or primary bean), {@code null} when it has
     *     none or several
     * @param allClients every client of a type the application has, in its order
     */
    public StoreSettings(
            String store,
            Function<StoreSetting, @Nullable String> values,
            Function<StoreSetting, String> spelling,
            Function<Class<?>, @Nullable Object> clients,
            Function<Class<?>, List<?>> allClients,
            Function<String, @Nullable String> environment) {
        this.store = Objects.requireNonNull(store, "store");
        this.values = Objects.requireNonNull(values, "values");
        this.spelling = Objects.requireNonNull(spelling, "spelling");
        this.clients = Objects.requireNonNull(clients, "clients");
        this.allClients = Objects.requireNonNull(allClients, "allClients");
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    private static List<?> client(Function<Class<?>, @Nullable Object> clients, Class<?> type) {
        Object client = clients.apply(type);
        return client == null ? List.of() : List.of(client);
    }

    /** The store's name, as the user chose it. */
    public String store() {
        return store;
    }

    /** The value given for {@code setting}, else its default; empty when neither is there. */
    public Optional<String> get(StoreSetting setting) {
        String value = values.apply(setting);
        if (value == null || value.isBlank()) {
            return Optional.ofNullable(setting.defaultValue());
        }
        return Optional.of(value.trim());
    }

    /**
     * The value of {@code setting}.
     *
     * @throws IllegalArgumentException naming the setting as the user writes it, when it has no value
     */
    public String require(StoreSetting setting) {
        return get(setting)
                .orElseThrow(() -> new IllegalArgumentException(spelling(setting) + " is not set: the " + store
                        + " store needs it (" + setting.description() + ")"));
    }

    /**
     * The value of {@code setting} as a URL with a scheme and a host, such as {@code http://127.0.0.1:8000}: a rule
     * for every store, so that a value without its scheme is refused before any request, not by an SDK.
     *
     * @throws IllegalArgumentException naming the setting as the user writes it and the value as given, with the
     *     value written as a URL when it lacks only its scheme ({@code 127.0.0.1:5055}), when the value is no such URL
     */
    public Optional<URI> url(StoreSetting setting) {
        return get(setting).map(value -> {
            URI uri;
            try {
                uri = new URI(value);
            } catch (java.net.URISyntaxException e) {
                uri = null;
            }
            if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
                String example =
                        value.contains("://") || value.contains(" ") ? "http://127.0.0.1:8000" : "http://" + value;
                throw new IllegalArgumentException(
                        spelling(setting) + " " + value + " is not a URL: write it with its scheme, e.g. " + example);
            }
            return uri;
        });
    }

    /** How the user writes {@code setting}: a property name, an option. */
    public String spelling(StoreSetting setting) {
        return spelling.apply(setting);
    }

    /** The application's client of {@code type}, when it has exactly one. */
    public <T> Optional<T> client(Class<T> type) {
        return Optional.ofNullable(clients.apply(type)).map(type::cast);
    }

    /**
     * Every client of {@code type} the application has, such as all its Blob Storage container clients, for a store
     * that picks the one on its resource; empty when it has none.
     */
    public <T> List<T> clients(Class<T> type) {
        return allClients.apply(type).stream().map(type::cast).toList();
    }

    /** An environment variable or platform setting, such as {@code AzureWebJobsStorage}; empty when unset. */
    public Optional<String> environment(String name) {
        return Optional.ofNullable(environment.apply(name)).filter(value -> !value.isBlank());
    }
}
