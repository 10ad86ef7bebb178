package dev.cloudlock.function.spring;

import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.TickResult;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.function.context.catalog.FunctionAroundWrapper;
import org.springframework.cloud.function.context.catalog.SimpleFunctionRegistry.FunctionInvocationWrapper;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Applies {@link GuardedFunctions} to every function of the catalog that {@code cloudlock.functions.<name>}
 * configures, without touching the function's code. A guarded call returns a {@code Message} with the header
 * {@value #OUTCOME_HEADER} ({@code ACQUIRED}, {@code BUSY}, {@code DONE}); a skipped call's payload is
 * the tick status's name as a JSON string. Functions without configuration (including {@code functionRouter}, so the
 * router's double firing guards the routed function once) pass through.
 *
 * <p>Spring Cloud Function (4.3 and 5.0 alike) calls it only in some cases, so it is not a guarantee on its own: it
 * sees a call only when the function was looked up from the {@code FunctionCatalog}, its input is a {@code Message},
 * no plain-object call of that function came before (that disables it for the function for good), and no other
 * call of the same function is in progress (a concurrent call bypasses it). Only one {@code FunctionAroundWrapper}
 * bean is honoured: this one backs off when the application defines its own. Use {@link GuardedFunctions#guard}
 * for the rest.
 *
 * <p>Being the one wrapper, it would replace Spring Cloud Function's own, which observes every function call
 * ({@code ObservationFunctionAroundWrapper}). Given that wrapper, it calls every function through it, so each run of a
 * function's body is observed as without the guard; a delivery the guard skips runs no body and is observed only by
 * the guard's {@code DeliveryListener}.
 */
public class TickGuardFunctionAroundWrapper extends FunctionAroundWrapper {

    /** The header carrying the guard's tick status on results. */
    public static final String OUTCOME_HEADER = "cloudlock-outcome";

    private final GuardedFunctions guards;
    private final @Nullable FunctionAroundWrapper inner;

    public TickGuardFunctionAroundWrapper(GuardedFunctions guards) {
        this(guards, null);
    }

    /**
     * @param inner the wrapper each call goes through inside the guard (Spring Cloud Function's observation), or
     *     {@code null} to call the function directly
     */
    public TickGuardFunctionAroundWrapper(GuardedFunctions guards, @Nullable FunctionAroundWrapper inner) {
        this.guards = guards;
        this.inner = inner;
    }

    @Override
    protected @Nullable Object doApply(Object input, FunctionInvocationWrapper targetFunction) {
        String name = targetFunction.getFunctionDefinition();
        Function<Object, @Nullable Object> call =
                inner == null ? targetFunction::apply : in -> inner.apply(in, targetFunction);
        if (!guards.isGuarded(name)) {
            return call.apply(input);
        }
        TickResult<@Nullable Object> result = guards.run(name, input, call);
        if (!result.ran()) {
            return MessageBuilder.withPayload(("\"" + result.status() + "\"").getBytes(StandardCharsets.UTF_8))
                    .setHeader(OUTCOME_HEADER, result.status().name())
                    .build();
        }
        return result.value() instanceof Message<?> message
                ? MessageBuilder.fromMessage(message)
                        .setHeader(OUTCOME_HEADER, TickStatus.ACQUIRED.name())
                        .build()
                : result.value();
    }
}
