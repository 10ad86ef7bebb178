package dev.cloudlock.function;

import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How the function guards read an environment variable or app setting: an absent or blank one is unset, a set one
 * is trimmed. The guard settings' variables are their {@link GuardSetting#variable()}s, read by
 * {@link GuardSettings#fromEnvironment(Map, Schedule.Syntax)}; each cloud's guard reads its store's own variables
 * (a table, a collection) with {@link #text}.
 */
public final class GuardEnvironment {

    private GuardEnvironment() {}

    /** The text in {@code variable}, or {@code null} when it is absent or blank. */
    public static @Nullable String text(Map<String, String> env, String variable) {
        return text(env::get, variable);
    }

    /**
     * The text in {@code variable} of {@code env} (a variable's value by its name, such as a Spring
     * {@code Environment}'s {@code getProperty}), or {@code null} as above.
     */
    public static @Nullable String text(Function<String, @Nullable String> env, String variable) {
        String text = env.apply(variable);
        return text == null || text.isBlank() ? null : text.trim();
    }
}
