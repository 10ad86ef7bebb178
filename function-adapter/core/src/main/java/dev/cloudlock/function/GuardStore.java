package dev.cloudlock.function;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.spi.NearMisses;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The lock store of a function guard, read from the environment the same way on every cloud: {@value #STORE} names
 * the store ({@link StoreType}: any store module on the class path), and each of its settings is the variable
 * {@code CLOUDLOCK_<STORE>_<SETTING>} ({@link #variable}: upper case, {@code -} written {@code _}, so
 * {@code dynamodb}'s {@code table-name} is {@code CLOUDLOCK_DYNAMODB_TABLE_NAME}). {@value #STORE} may be left out when
 * exactly one store module is on the class path (the in-memory store, always there, is chosen only by name).
 * Everything is checked when the guard is built, before any request: an unknown store, a missing required variable, a
 * bad value, a variable under the store's prefix that is none of its settings (a misspelling), a variable of before
 * 1.0 ({@link #retiredVariables()}) and what the store's own client needs ({@link
 * StoreType#checkEnvironment}) each fail naming the variable to set.
 */
public final class GuardStore {

    /** The variable naming the store, such as {@code dynamodb} or {@code azure-blob}. */
    public static final String STORE = "CLOUDLOCK_STORE";

    private static final String PREFIX = "CLOUDLOCK_";

    /** The guards' store variables before 1.0, each with the variable that replaces it. */
    private static final Map<String, String> RETIRED = retired();

    private GuardStore() {}

    private static Map<String, String> retired() {
        Map<String, String> retired = new LinkedHashMap<>();
        retired.put("CLOUDLOCK_DYNAMODB_TABLE", variable("dynamodb", "table-name"));
        retired.put("CLOUDLOCK_BLOB_CONTAINER", variable("azure-blob", "container"));
        retired.put("CLOUDLOCK_BLOB_PREFIX", variable("azure-blob", "prefix"));
        retired.put("CLOUDLOCK_BLOB_ENDPOINT", variable("azure-blob", "endpoint"));
        retired.put("CLOUDLOCK_BLOB_CONNECTION_STRING", variable("azure-blob", "connection-string"));
        return Collections.unmodifiableMap(retired);
    }

    /** The variable of {@code setting} of the store {@code type}: {@code CLOUDLOCK_<STORE>_<SETTING>}. */
    public static String variable(StoreType type, StoreSetting setting) {
        return variable(type.name(), setting.name());
    }

    private static String variable(String store, String setting) {
        return (PREFIX + store + "_" + setting).toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * The store variables the guards read before 1.0, each mapped to the variable that replaces it; one that is set
     * fails the guard's start naming its replacement, so that no setting is silently ignored.
     */
    public static Map<String, String> retiredVariables() {
        return RETIRED;
    }

    /**
     * The store {@value #STORE} names in {@code env}, else the one store module on the class path.
     *
     * @throws IllegalArgumentException naming {@value #STORE} and the stores there are, when it names none of them
     *     (with the near misses of the name), or when it is unset and there is no store module or more than one
     */
    public static StoreType type(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        return type(env::get);
    }

    private static StoreType type(Function<String, @Nullable String> env) {
        String name = GuardEnvironment.text(env, STORE);
        if (name != null) {
            return StoreType.named(name, STORE);
        }
        List<StoreType> modules = StoreType.modules();
        if (modules.size() == 1) {
            return modules.get(0);
        }
        if (modules.isEmpty()) {
            throw new IllegalArgumentException(STORE + " is not set, and no store module is on the class path: add"
                    + " the module of the store that holds the locks, such as dev.cloudlock:cloudlock-dynamodb (its"
                    + " version comes from cloudlock-bom), and set " + STORE + " to its name");
        }
        String names = modules.stream().map(StoreType::name).collect(Collectors.joining(", "));
        throw new IllegalArgumentException(STORE + " is not set, and several store modules are on the class path ("
                + names + "): set it to the one that holds the locks");
    }

    /**
     * A provider builder on the store {@code env} describes, with the store's coordinates set; the guard sets
     * {@code lockedBy} and builds. It sends no request.
     *
     * @param env the environment (a function's variables or app settings)
     * @param clients the client of a type the store may use instead of building its own (the function's, or one the
     *     platform's guard builds leaner), {@code null} when there is none
     * @throws IllegalArgumentException naming the variable, when a retired variable is set, the store is unknown, a
     *     required variable is missing or a value is bad, or when the store's own client lacks what it needs from this
     *     machine (such as credentials)
     */
    public static CloudLockProviderBuilder<?> builder(
            Map<String, String> env, Function<Class<?>, @Nullable Object> clients) {
        Objects.requireNonNull(env, "env");
        Set<String> read = ConcurrentHashMap.newKeySet();
        CloudLockProviderBuilder<?> builder;
        try {
            builder = builder(
                    name -> {
                        read.add(name);
                        return env.get(name);
                    },
                    clients);
        } catch (IllegalArgumentException failed) {
            // a misspelled variable is the likelier cause of what the store found missing: name it first
            StoreType type;
            try {
                type = type(env);
            } catch (IllegalArgumentException noStore) {
                throw failed;
            }
            refuseUnknown(env, type, read);
            throw failed;
        }
        refuseUnknown(env, type(env), read);
        return builder;
    }

    /**
     * Refuses a variable under the store's prefix ({@code CLOUDLOCK_<STORE>_}) that is none of its settings and that
     * the store did not read either (as Cosmos DB reads its key): a misspelled setting is never silently ignored.
     */
    private static void refuseUnknown(Map<String, String> env, StoreType type, Set<String> read) {
        String prefix = variable(type.name(), "");
        List<String> known =
                type.settings().stream().map(setting -> variable(type, setting)).toList();
        for (String name : env.keySet()) {
            if (name.startsWith(prefix) && !known.contains(name) && !read.contains(name)) {
                List<String> near = NearMisses.of(name, known);
                throw new IllegalArgumentException(name + " is set, and the store " + type.name() + " has no such"
                        + " setting: " + (near.isEmpty() ? "" : "did you mean " + String.join(" or ", near) + "? ")
                        + "Its variables are " + String.join(", ", known));
            }
        }
    }

    /**
     * A provider builder on the store the variables {@code variables} gives describe, as {@link #builder(Map,
     * Function)}: for an environment that is no map, such as Spring's.
     *
     * @param variables the value of a variable by its name, {@code null} when it is unset
     * @throws IllegalArgumentException as {@link #builder(Map, Function)}
     */
    public static CloudLockProviderBuilder<?> builder(
            Function<String, @Nullable String> variables, Function<Class<?>, @Nullable Object> clients) {
        Objects.requireNonNull(variables, "variables");
        Objects.requireNonNull(clients, "clients");
        Function<String, @Nullable String> env = variables;
        refuseRetired(env);
        StoreType type = type(env);
        StoreSettings settings = new StoreSettings(
                type.name(),
                setting -> env.apply(variable(type, setting)),
                setting -> variable(type, setting),
                clients,
                env);
        for (StoreSetting setting : type.settings()) {
            if (setting.required()) {
                settings.require(setting);
            }
        }
        CloudLockProviderBuilder<?> builder = type.builder(settings);
        type.checkEnvironment(settings);
        return builder;
    }

    /**
     * A guard on the store {@code env} describes ({@link #builder(Map, Function)}, its provider locked by
     * {@code lockedBy}), with the guard settings {@code env} gives ({@link GuardSettings#fromEnvironment(Map,
     * Schedule.Syntax)}): what each platform's guard makes of its environment.
     *
     * @param syntax the platform's schedule syntax
     * @param clients the client of a type the store may use instead of building its own, {@code null} when none
     * @param guard the platform's guard on the settings and the provider
     * @throws LockStoreConfigurationException naming the variable, as {@link #builder(Map, Function)} and the guard
     *     settings' reader do, as a setup error: what a platform reports as its failed start
     */
    public static <G> G guard(
            Map<String, String> env,
            Schedule.Syntax syntax,
            Function<Class<?>, @Nullable Object> clients,
            String lockedBy,
            BiFunction<GuardSettings, CloudLockProvider, G> guard) {
        Objects.requireNonNull(guard, "guard");
        try {
            GuardSettings settings = GuardSettings.fromEnvironment(env, syntax);
            return guard.apply(
                    settings, builder(env, clients).lockedBy(lockedBy).build());
        } catch (IllegalArgumentException malformed) {
            throw new LockStoreConfigurationException(malformed.getMessage(), malformed);
        }
    }

    private static void refuseRetired(Function<String, @Nullable String> env) {
        for (Map.Entry<String, String> retired : RETIRED.entrySet()) {
            if (GuardEnvironment.text(env, retired.getKey()) != null) {
                throw new IllegalArgumentException(retired.getKey() + " is set, and the guards no longer read it since"
                        + " 1.0: set " + retired.getValue() + " instead (and " + STORE + " to the store's name)");
            }
        }
    }
}
