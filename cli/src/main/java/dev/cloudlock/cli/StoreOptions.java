package dev.cloudlock.cli;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryStoreType;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.spi.NearMisses;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Which store the command works on and how to reach it, made from the store types on the class path
 * ({@link StoreType#all()}): {@code --store} takes the name of one of them, and every setting a store takes is the
 * option {@code --<setting>}, one option for each name however many stores read it. The options are the same
 * before and after the subcommand. A missing or bad setting is the store's {@link IllegalArgumentException}, naming
 * the option, raised by {@link #provider()} before any request. Credentials and region come from each SDK's standard
 * chain and the environment variables the store reads.
 */
final class StoreOptions {

    @Option(
            names = "--store",
            paramLabel = "<store>",
            scope = ScopeType.INHERIT,
            converter = StoreNameConverter.class,
            completionCandidates = StoreNames.class,
            description = "The lock store (required): ${COMPLETION-CANDIDATES}.")
    @Nullable
    StoreType store;

    @Option(
            names = "--call-timeout",
            paramLabel = "<duration>",
            scope = ScopeType.INHERIT,
            defaultValue = "PT10S",
            converter = DurationConverter.class,
            description = "Deadline of each store call, e.g. 10s or PT10S (default: 10s).")
    Duration callTimeout;

    @Option(
            names = "--locked-by",
            paramLabel = "<identity>",
            scope = ScopeType.INHERIT,
            description = "Who a watermark reset writes as lockedBy (default: cloudlock-cli on this host).")
    @Nullable
    String lockedBy;

    /** The option of each setting name, in the order the stores (by name) list their settings. */
    private final Map<String, OptionSpec> settingOptions;

    /** The options of the stores on the class path. */
    StoreOptions() {
        this(StoreType.all());
    }

    /** The options of the settings of {@code types}; {@code --store} still takes the stores on the class path. */
    StoreOptions(List<StoreType> types) {
        this.settingOptions = settingOptions(types);
    }

    /**
     * Adds these options to {@code command}, and so to every subcommand it has: picocli copies options of scope
     * {@link ScopeType#INHERIT} to them.
     */
    void addTo(CommandLine command) {
        CommandSpec options = CommandSpec.forAnnotatedObject(this);
        settingOptions.values().forEach(options::addOption);
        command.getCommandSpec().addMixin("store", options);
    }

    /**
     * The provider on the chosen store; it sends no request.
     *
     * @throws IllegalArgumentException when {@code --store} is missing, or the store finds a setting missing or bad,
     *     or this machine lacks what the store's client needs, such as credentials ({@link StoreType#checkEnvironment})
     */
    CloudLockProvider provider() {
        StoreType type = chosen();
        refuseOtherStoresOptions(type);
        StoreSettings settings = settings(type);
        CloudLockProvider provider = type.builder(settings)
                .lockedBy(lockedBy != null ? lockedBy : "cloudlock-cli/" + InstanceIdentity.hostAndPid())
                .callTimeout(callTimeout)
                .deadlinesSetBy("--call-timeout")
                .build();
        type.checkEnvironment(settings);
        return provider;
    }

    /**
     * Refuses a store option given on the command line that {@code type} does not read (such as {@code --table},
     * Table Storage's, with {@code --store dynamodb}): the store would ignore it and act on its own default.
     *
     * @throws IllegalArgumentException naming the option, the stores that read it and {@code type}'s near miss
     */
    private void refuseOtherStoresOptions(StoreType type) {
        List<String> own =
                type.settings().stream().map(setting -> "--" + setting.name()).toList();
        settingOptions.forEach((name, option) -> {
            String given = "--" + name;
            if (option.getValue() != null && !own.contains(given)) {
                List<String> near = NearMisses.of(given, own);
                throw new IllegalArgumentException("'" + given + "' is not an option of the " + type.name()
                        + " store (read by "
                        + StoreType.all().stream()
                                .filter(other -> other.settings().stream()
                                        .anyMatch(setting -> setting.name().equals(name)))
                                .map(StoreType::name)
                                .collect(Collectors.joining(", "))
                        + ")"
                        + (!near.isEmpty()
                                ? ": did you mean " + String.join(" or ", near) + "?"
                                : own.isEmpty()
                                        ? ": it has no options"
                                        : ": its options are " + String.join(", ", own)));
            }
        });
    }

    /** What to do about a store that is set up wrong, in this command's options ({@link StoreType#setupFix}). */
    String setupFix() {
        StoreType type = chosen();
        return type.setupFix(settings(type));
    }

    /**
     * A note for a listing that found nothing, when {@code --prefix} is given without its closing {@code /}: keys are
     * the prefix then the lock's name, so {@code --prefix team-a} lists keys that start {@code team-a}, never the locks
     * under {@code team-a/}.
     */
    Optional<String> prefixNote() {
        OptionSpec prefix = settingOptions.get("prefix");
        String value = prefix == null ? null : prefix.getValue();
        if (value == null || value.isEmpty() || value.endsWith("/")) {
            return Optional.empty();
        }
        return Optional.of("--prefix " + value + " does not end with '/': keys are the prefix then the lock's name, so"
                + " locks under '" + value + "/' are not listed; did you mean --prefix " + value + "/?");
    }

    /** Whether the store lives in this process alone ({@code --store in-memory}), so no other process shares it. */
    boolean inThisProcess() {
        return chosen().name().equals(InMemoryStoreType.NAME);
    }

    private StoreType chosen() {
        if (store == null) {
            throw new IllegalArgumentException("--store is required: one of " + StoreNames.list());
        }
        return store;
    }

    /** The settings of {@code type} as the options give them. */
    StoreSettings settings(StoreType type) {
        return new StoreSettings(
                type.name(),
                setting -> settingOptions.get(setting.name()).getValue(),
                setting -> "--" + setting.name(),
                client -> null,
                System::getenv);
    }

    /**
     * One option per setting name: its help names each store that reads it, with that store's description (without
     * the words about an application's own client: the command never has one) and default. No default is set on the
     * option itself, so that each store applies its own.
     */
    private static Map<String, OptionSpec> settingOptions(List<StoreType> types) {
        Map<String, List<String>> descriptions = new LinkedHashMap<>();
        for (StoreType type : types) {
            for (StoreSetting setting : type.settings()) {
                descriptions
                        .computeIfAbsent(setting.name(), name -> new ArrayList<>())
                        .add(helpLiteral(type.name() + ": " + setting.standaloneDescription() + defaultText(setting)));
            }
        }
        Map<String, OptionSpec> options = new LinkedHashMap<>();
        descriptions.forEach((name, lines) -> options.put(
                name,
                OptionSpec.builder("--" + name)
                        .paramLabel("<" + name + ">")
                        .type(String.class)
                        .scopeType(ScopeType.INHERIT)
                        .description(lines.toArray(String[]::new))
                        .build()));
        return options;
    }

    private static String defaultText(StoreSetting setting) {
        if (setting.required()) {
            return " Required.";
        }
        return setting.defaultValue() == null ? "" : " Default: " + setting.defaultValue() + ".";
    }

    /** {@code text} as picocli shows it: its descriptions are format strings and may hold {@code ${variables}}. */
    private static String helpLiteral(String text) {
        return text.replace("%", "%%").replace("${", "$${");
    }

    /** The names of the stores on the class path, as {@code --store} takes them. */
    static final class StoreNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return StoreType.all().stream().map(StoreType::name).iterator();
        }

        static String list() {
            return StoreType.all().stream().map(StoreType::name).collect(Collectors.joining(", "));
        }
    }

    /** Reads {@code --store}, naming the stores on the class path when the value is none of them. */
    static final class StoreNameConverter implements CommandLine.ITypeConverter<StoreType> {
        @Override
        public StoreType convert(String value) {
            return StoreType.find(value)
                    .orElseThrow(() -> new CommandLine.TypeConversionException("'" + value
                            + "' is no store on this command's class path: use one of " + StoreNames.list()));
        }
    }

    /** Reads {@code 10s}, {@code 500ms}, {@code 2m} or an ISO-8601 duration such as {@code PT10S}. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            try {
                if (v.startsWith("pt") || v.startsWith("p")) {
                    return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
                }
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                long amount = Long.parseLong(v.substring(0, v.length() - 1));
                return switch (v.charAt(v.length() - 1)) {
                    case 's' -> Duration.ofSeconds(amount);
                    case 'm' -> Duration.ofMinutes(amount);
                    case 'h' -> Duration.ofHours(amount);
                    case 'd' -> Duration.ofDays(amount);
                    default -> throw new IllegalArgumentException(value);
                };
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is no duration: use e.g. 10s, 500ms, 2m, 7d or PT10S");
            }
        }
    }
}
