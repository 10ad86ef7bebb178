package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.InMemoryStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Builds the provider {@code cloudlock.store} names (or the one store module on the class path) through the store
 * registry ({@link StoreType}): the store's settings are the properties {@code cloudlock.<store>.<setting>} (relaxed
 * binding, so environment variables such as {@code CLOUDLOCK_S3_BUCKET} count), its clients the application's beans.
 * No store is named here: a store module on the class path is all a store needs.
 */
final class StoreProviders {

    private static final String STORE_PROPERTY = "cloudlock.store";

    private StoreProviders() {}

    /**
     * The store type {@code cloudlock.store} names; when it names none, the one store module on the class path (the
     * in-memory store, always there, is chosen only by name).
     *
     * @throws CloudLockStartupException naming {@code cloudlock.store} and the stores there are, when the name is
     *     unknown, or when it is unset and there is no store module or more than one
     */
    static StoreType type(CloudLockProperties properties) {
        String name = properties.getStore() == null ? "" : properties.getStore().trim();
        if (name.isEmpty()) {
            return onlyStoreModule();
        }
        try {
            return StoreType.named(name, STORE_PROPERTY);
        } catch (IllegalArgumentException e) {
            throw startupFailure(e);
        }
    }

    /** The store's name for meter tags and health details: {@link #type}'s, or empty when that would fail. */
    static Optional<String> storeName(CloudLockProperties properties) {
        try {
            return Optional.of(type(properties).name());
        } catch (CloudLockStartupException e) {
            return Optional.empty();
        }
    }

    private static StoreType onlyStoreModule() {
        List<StoreType> modules = StoreType.modules();
        if (modules.size() == 1) {
            return modules.get(0);
        }
        if (modules.isEmpty()) {
            throw new CloudLockStartupException(
                    STORE_PROPERTY + " is not set, and no store module is on the class path",
                    "Add the module of the store that holds the locks, such as dev.cloudlock:cloudlock-dynamodb (its"
                            + " version comes from cloudlock-bom); or, for a single instance or a test, set "
                            + STORE_PROPERTY + "=" + InMemoryStoreType.NAME);
        }
        String names = modules.stream().map(StoreType::name).collect(Collectors.joining(", "));
        throw new CloudLockStartupException(
                STORE_PROPERTY + " is not set, and several store modules are on the class path: " + names,
                "Set " + STORE_PROPERTY + " to the one that holds the locks: " + names);
    }

    /**
     * The startup line that says where the locks are: the store, each setting that has a value (credentials left
     * out) and {@code lockedBy}.
     */
    static String description(StoreType type, StoreSettings settings, CloudLockProvider provider) {
        StringBuilder line = new StringBuilder("Locks on ").append(type.name());
        List<String> given = new ArrayList<>();
        for (StoreSetting setting : type.settings()) {
            settings.get(setting)
                    .ifPresent(value -> given.add(settings.spelling(setting) + "="
                            + (setting.kind() == StoreSetting.Kind.SECRET ? "(set)" : value)));
        }
        if (!given.isEmpty()) {
            line.append(" (").append(String.join(", ", given)).append(')');
        }
        return line.append(", locked by ").append(provider.lockedBy()).toString();
    }

    /** The settings of {@code type} as the application's properties, beans and environment give them. */
    static StoreSettings settings(StoreType type, Environment environment, BeanFactory beans) {
        Binder binder = Binder.get(environment);
        return new StoreSettings(
                type.name(),
                setting -> binder.bind(property(type, setting), String.class).orElse(null),
                setting -> property(type, setting),
                client -> beans.getBeanProvider(client).getIfUnique(),
                client -> beans.getBeanProvider(client).orderedStream().toList(),
                environment::getProperty);
    }

    /**
     * The provider on {@code type} with the shared properties applied.
     *
     * @throws CloudLockStartupException naming the property to set or correct
     */
    static CloudLockProvider build(
            StoreType type, StoreSettings settings, CloudLockProperties properties, Environment environment) {
        for (StoreSetting setting : type.settings()) {
            if (setting.required() && settings.get(setting).isEmpty()) {
                String property = settings.spelling(setting);
                throw new CloudLockStartupException(
                        property + " is not set (it is required with " + STORE_PROPERTY + "=" + type.name() + ")",
                        "Set " + property + " in the application's configuration");
            }
        }
        CloudLockProviderBuilder<?> builder;
        try {
            builder = type.builder(settings);
        } catch (IllegalArgumentException e) {
            throw startupFailure(e);
        }
        builder.deadlinesSetBy("cloudlock.call-timeout and cloudlock.attempt-timeout");
        shared(properties.getLockedBy(), "cloudlock.locked-by", builder::lockedBy, environment);
        shared(properties.getCallTimeout(), "cloudlock.call-timeout", builder::callTimeout, environment);
        shared(properties.getAttemptTimeout(), "cloudlock.attempt-timeout", builder::attemptTimeout, environment);
        return builder.build();
    }

    /** {@code cloudlock.<store>.<setting>}. */
    static String property(StoreType type, StoreSetting setting) {
        return "cloudlock." + type.name() + "." + setting.name();
    }

    private static <T> void shared(@Nullable T value, String property, Consumer<T> setter, Environment environment) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new CloudLockStartupException(
                    property + " is '" + written(environment, property, value) + "', which the provider refuses ("
                            + e.getMessage() + ")",
                    "Correct " + property + " in the application's configuration",
                    e);
        }
    }

    /** {@code property} as the configuration writes it ({@code -1s}, not {@code PT-1S}), where it can be read. */
    private static String written(Environment environment, String property, Object value) {
        try {
            return environment.getProperty(property, String.valueOf(value));
        } catch (IllegalArgumentException unresolvedPlaceholder) {
            return String.valueOf(value);
        }
    }

    /**
     * A store's refusal as a startup failure. A store's {@link IllegalArgumentException} says what is wrong, then,
     * after the first {@code ": "}, what to do about it, naming the properties as this class spells them.
     */
    /** A startup failure of a bad setting's message: what is wrong up to its first ": ", then what to do. */
    static CloudLockStartupException startupFailure(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        int fix = message.indexOf(": ");
        if (fix < 0) {
            return new CloudLockStartupException(
                    message, "Correct the cloudlock.* properties the description names", e);
        }
        String action = message.substring(fix + 2);
        return new CloudLockStartupException(
                message.substring(0, fix), Character.toUpperCase(action.charAt(0)) + action.substring(1), e);
    }
}
