package dev.cloudlock.function.spring;

import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.GuardSetting;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The function a deployment runs, and the variables its deployment sets for it: each {@link GuardSetting}'s
 * {@link GuardSetting#variable() variable} (as every function guard reads them, and as infra-terraform's modules set
 * them) and {@value TickSource#VARIABLE}, the tick source that reads what the deployment's trigger sends. A
 * deployment runs one function, so these variables guard one: the one {@value #DEFINITION} names, else the only one
 * {@code cloudlock.functions} configures.
 */
final class DeployedFunction {

    /** Spring Cloud Function's property naming the function the adapters call. */
    static final String DEFINITION = "spring.cloud.function.definition";

    private final String name;
    private final Function<String, @Nullable String> environment;

    private DeployedFunction(String name, Function<String, @Nullable String> environment) {
        this.name = name;
        this.environment = environment;
    }

    /**
     * The function the guard variables of {@code environment} apply to; empty when none of them is set.
     *
     * @param environment a variable's value by its name
     * @param definition the value of {@value #DEFINITION}, or {@code null}
     * @param configured the functions {@code cloudlock.functions} configures
     * @throws IllegalArgumentException naming the variable and {@value #DEFINITION} when it is unknown which function
     *     they apply to
     */
    static Optional<DeployedFunction> of(
            Function<String, @Nullable String> environment,
            @Nullable String definition,
            Collection<String> configured) {
        Objects.requireNonNull(environment, "environment");
        Optional<String> set = Stream.concat(
                        GuardSetting.all().stream().map(GuardSetting::variable), Stream.of(TickSource.VARIABLE))
                .filter(variable -> GuardEnvironment.text(environment, variable) != null)
                .findFirst();
        if (set.isEmpty()) {
            return Optional.empty();
        }
        String named = definition == null || definition.isBlank() ? null : definition.trim();
        if (named != null && named.chars().anyMatch(c -> c == '|' || c == ';' || c == ',')) {
            throw new IllegalArgumentException(set.get() + " is set, and the guard variables configure one function,"
                    + " but " + DEFINITION + " is '" + named + "', more than one: configure each function's guard with"
                    + " cloudlock.functions.<functionName>.* instead");
        }
        if (named == null && configured.size() != 1) {
            throw new IllegalArgumentException(set.get() + " is set, and the guard variables configure the function"
                    + " the deployment runs, but which one is unknown: set " + DEFINITION + " to its name"
                    + (configured.isEmpty()
                            ? ""
                            : " (cloudlock.functions configures " + String.join(", ", configured) + ")"));
        }
        return Optional.of(new DeployedFunction(
                named != null ? named : configured.iterator().next(), environment));
    }

    /** The function's name. */
    String name() {
        return name;
    }

    /** The text of {@code variable}, or {@code null} when it is absent or blank. */
    @Nullable
    String text(String variable) {
        return GuardEnvironment.text(environment, variable);
    }
}
