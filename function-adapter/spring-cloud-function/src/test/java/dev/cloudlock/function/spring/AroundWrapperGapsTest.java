package dev.cloudlock.function.spring;

import static dev.cloudlock.function.spring.Events.eventBridge;
import static dev.cloudlock.function.spring.Events.eventBridgeMap;
import static dev.cloudlock.function.spring.Events.message;
import static dev.cloudlock.function.spring.ScheduledFunctionsApp.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.function.context.FunctionCatalog;
import org.springframework.cloud.function.context.catalog.FunctionAroundWrapper;
import org.springframework.cloud.function.context.catalog.SimpleFunctionRegistry.FunctionInvocationWrapper;
import org.springframework.cloud.function.context.config.RoutingFunction;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Each known gap of {@code FunctionAroundWrapper} in Spring Cloud Function 4.3.0, shown on a wrapped-only function
 * (the duplicate runs: if Spring Cloud Function closes a gap, that assertion fails and the docs must change), and the
 * decorated function guarded through the same calls. DynamoDB on dynalite, a fresh table per test.
 */
class AroundWrapperGapsTest {

    private static final String OUTCOME = TickGuardFunctionAroundWrapper.OUTCOME_HEADER;

    private ConfigurableApplicationContext context;
    private FunctionCatalog catalog;

    @BeforeEach
    void start() {
        context = start(ScheduledFunctionsApp.class);
        catalog = context.getBean(FunctionCatalog.class);
    }

    private static ConfigurableApplicationContext start(Class<?>... sources) {
        ScheduledFunctionsApp.reset();
        return new SpringApplicationBuilder(sources)
                .web(WebApplicationType.NONE)
                .run("--cloudlock.test.table=scf-" + UUID.randomUUID());
    }

    @AfterEach
    void stop() {
        context.close();
    }

    private FunctionInvocationWrapper lookup(String name) {
        return catalog.lookup(name, "application/json");
    }

    private static String payload(Object result) {
        return new String((byte[]) ((Message<?>) result).getPayload(), StandardCharsets.UTF_8);
    }

    private static Object outcome(Object result) {
        return ((Message<?>) result).getHeaders().get(OUTCOME);
    }

    @Test
    void wrapperGuardsMessageCallsOfACatalogFunction() {
        FunctionInvocationWrapper report = lookup("nightlyReport");
        Object first = report.apply(message(eventBridge("2026-11-30T02:00:00Z")));
        Object duplicate = report.apply(message(eventBridge("2026-11-30T02:00:00Z")));
        assertThat(outcome(first)).isEqualTo("ACQUIRED");
        assertThat(outcome(duplicate)).isEqualTo("DONE");
        assertThat(payload(duplicate)).isEqualTo("\"DONE\"");
        assertThat(runs("nightlyReport")).isEqualTo(1);
        assertThat(ScheduledFunctionsApp.FENCING_TOKENS)
                .as("currentTick() inside the wrapped body")
                .containsKey("nightlyReport");
        Object next = report.apply(message(eventBridge("2026-11-30T03:00:00Z")));
        assertThat(outcome(next)).as("the next occurrence").isEqualTo("ACQUIRED");
    }

    @Test
    void gapNonMessageInputIsNotWrappedButTheDecoratorGuardsIt() {
        FunctionInvocationWrapper wrappedOnly = lookup("nightlyReport");
        wrappedOnly.apply(eventBridge("2026-11-30T02:00:00Z"));
        wrappedOnly.apply(eventBridge("2026-11-30T02:00:00Z"));
        assertThat(runs("nightlyReport"))
                .as("gap: plain inputs bypass the wrapper")
                .isEqualTo(2);

        FunctionInvocationWrapper decorated = lookup("guardedReport");
        assertThat(decorated.apply(eventBridge("2026-11-30T02:00:00Z"))).isNotNull();
        assertThat(decorated.apply(eventBridge("2026-11-30T02:00:30Z")))
                .as("same minute: a duplicate")
                .isNull();
        assertThat(runs("guardedReport")).isEqualTo(1);
    }

    @Test
    void gapOnePlainCallDisablesTheWrapperForGoodButNotTheDecorator() {
        FunctionInvocationWrapper wrappedOnly = lookup("nightlyReport");
        wrappedOnly.apply(eventBridge("2026-11-30T02:00:00Z"));
        Object first = wrappedOnly.apply(message(eventBridge("2026-11-30T03:00:00Z")));
        lookup("nightlyReport").apply(message(eventBridge("2026-11-30T03:00:00Z")));
        assertThat(outcome(first)).as("gap: no longer wrapped").isNull();
        assertThat(runs("nightlyReport"))
                .as("gap: the Message duplicate ran too")
                .isEqualTo(3);

        FunctionInvocationWrapper decorated = lookup("guardedReport");
        decorated.apply(eventBridge("2026-11-30T02:00:00Z"));
        decorated.apply(message(eventBridge("2026-11-30T03:00:00Z")));
        decorated.apply(message(eventBridge("2026-11-30T03:00:00Z")));
        assertThat(runs("guardedReport")).as("02:00 once, 03:00 once").isEqualTo(2);
    }

    @Test
    @SuppressWarnings("unchecked")
    void gapDirectlyInjectedBeansAreNotWrappedButTheDecoratorGuardsThem() {
        Function<Map<String, Object>, String> wrappedOnly = context.getBean("nightlyReport", Function.class);
        wrappedOnly.apply(eventBridgeMap("2026-11-30T02:00:00Z"));
        wrappedOnly.apply(eventBridgeMap("2026-11-30T02:00:00Z"));
        assertThat(runs("nightlyReport"))
                .as("gap: the bean itself is never wrapped")
                .isEqualTo(2);

        Function<Map<String, Object>, String> decorated = context.getBean("guardedReport", Function.class);
        assertThat(decorated.apply(eventBridgeMap("2026-11-30T02:00:00Z"))).isEqualTo("report built by guardedReport");
        assertThat(decorated.apply(eventBridgeMap("2026-11-30T02:00:00Z"))).isNull();
        assertThat(runs("guardedReport")).isEqualTo(1);
    }

    @Test
    void gapTheRouterFiresTheWrapperTwiceAndTheRoutedFunctionIsGuardedOnce() {
        FunctionInvocationWrapper router = lookup(RoutingFunction.FUNCTION_NAME);
        Message<byte[]> event = MessageBuilder.fromMessage(message(eventBridge("2026-11-30T02:00:00Z")))
                .setHeader("spring.cloud.function.definition", "routedReport")
                .build();
        CountingWrapper.calls.clear();
        try (ConfigurableApplicationContext counted = start(ScheduledFunctionsApp.class, CountingWrapper.class)) {
            counted.getBean(FunctionCatalog.class)
                    .<FunctionInvocationWrapper>lookup(RoutingFunction.FUNCTION_NAME, "application/json")
                    .apply(event);
            assertThat(CountingWrapper.calls)
                    .as("the gap itself: one call, two firings")
                    .containsExactly(RoutingFunction.FUNCTION_NAME, "routedReport");
        }
        ScheduledFunctionsApp.reset();
        // the router's output conversion drops the outcome header: the payload tells
        assertThat(payload(router.apply(event)))
                .as("not BUSY by its own outer firing")
                .isEqualTo("\"report built by routedReport\"");
        assertThat(payload(router.apply(event))).isEqualTo("\"DONE\"");
        assertThat(runs("routedReport")).isEqualTo(1);
    }

    @Test
    void gapAConcurrentCallBypassesTheWrapperButNotTheDecorator() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            assertThat(runConcurrently(pool, "slowReport"))
                    .as("gap: the second call was not wrapped")
                    .isNull();
            assertThat(runs("slowReport")).as("gap: both calls ran the body").isEqualTo(2);

            assertThat(runConcurrently(pool, "guardedSlowReport"))
                    .as("the decorator skipped it")
                    .isNull();
            assertThat(runs("guardedSlowReport")).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Starts a call whose body blocks, makes a second call of the same occurrence meanwhile, releases the first.
     * Returns the outcome header of the second call's result.
     */
    private Object runConcurrently(ExecutorService pool, String function) throws Exception {
        ScheduledFunctionsApp.slowStarted = new CountDownLatch(1);
        ScheduledFunctionsApp.slowRelease = new CountDownLatch(1);
        FunctionInvocationWrapper target = lookup(function);
        Future<Object> first = pool.submit(() -> target.apply(message(eventBridge("2026-11-30T02:00:00Z"))));
        assertThat(ScheduledFunctionsApp.slowStarted.await(20, TimeUnit.SECONDS))
                .isTrue();
        Future<Object> second = pool.submit(() -> target.apply(message(eventBridge("2026-11-30T02:00:00Z"))));
        Object secondResult = function.startsWith("guarded") ? second.get(20, TimeUnit.SECONDS) : null;
        ScheduledFunctionsApp.slowRelease.countDown();
        assertThat(outcome(first.get(20, TimeUnit.SECONDS))).isEqualTo("ACQUIRED");
        if (secondResult == null) {
            secondResult = second.get(20, TimeUnit.SECONDS);
        }
        return secondResult instanceof Message<?> message ? message.getHeaders().get(OUTCOME) : null;
    }

    @Test
    void gapOnlyOneWrapperIsHonouredSoOursBacksOffButTheDecoratorStillGuards() {
        try (ConfigurableApplicationContext withOwn = start(ScheduledFunctionsApp.class, CountingWrapper.class)) {
            assertThat(withOwn.getBeansOfType(FunctionAroundWrapper.class)).containsOnlyKeys("countingWrapper");
            FunctionCatalog catalog = withOwn.getBean(FunctionCatalog.class);
            FunctionInvocationWrapper wrappedOnly = catalog.lookup("nightlyReport", "application/json");
            wrappedOnly.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            wrappedOnly.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            assertThat(runs("nightlyReport")).isEqualTo(2);
            FunctionInvocationWrapper decorated = catalog.lookup("guardedReport", "application/json");
            decorated.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            decorated.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            assertThat(runs("guardedReport")).isEqualTo(1);
        }
    }

    @Test
    void theWrapperCanBeTurnedOffAndTheDecoratorStillGuards() {
        ScheduledFunctionsApp.reset();
        try (ConfigurableApplicationContext off = new SpringApplicationBuilder(ScheduledFunctionsApp.class)
                .web(WebApplicationType.NONE)
                .run("--cloudlock.test.table=scf-" + UUID.randomUUID(), "--cloudlock.around-wrapper=false")) {
            assertThat(off.getBeansOfType(FunctionAroundWrapper.class)).isEmpty();
            FunctionCatalog catalog = off.getBean(FunctionCatalog.class);
            FunctionInvocationWrapper wrappedOnly = catalog.lookup("nightlyReport", "application/json");
            wrappedOnly.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            wrappedOnly.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            assertThat(runs("nightlyReport")).isEqualTo(2);
            FunctionInvocationWrapper decorated = catalog.lookup("guardedReport", "application/json");
            decorated.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            decorated.apply(message(eventBridge("2026-11-30T02:00:00Z")));
            assertThat(runs("guardedReport")).isEqualTo(1);
        }
    }

    @Test
    void aFailedBodyLeavesTheOccurrenceOpenForTheRetry() {
        GuardedFunctions guards = context.getBean(GuardedFunctions.class);
        Function<Map<String, Object>, String> flaky = guards.guard("guardedReport", new Function<>() {
            private int calls;

            @Override
            public String apply(Map<String, Object> event) {
                if (calls++ == 0) {
                    throw new IllegalStateException("upstream down");
                }
                return "done";
            }
        });
        assertThatThrownBy(() -> flaky.apply(eventBridgeMap("2026-11-30T02:00:00Z")))
                .hasMessage("upstream down");
        assertThat(flaky.apply(eventBridgeMap("2026-11-30T02:00:00Z")))
                .as("the retry")
                .isEqualTo("done");
        assertThat(flaky.apply(eventBridgeMap("2026-11-30T02:00:00Z")))
                .as("a duplicate after it")
                .isNull();
    }

    @Test
    void anIncompleteConfigurationFailsStartupNamingTheProperty() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(ScheduledFunctionsApp.class)
                        .web(WebApplicationType.NONE)
                        .run("--cloudlock.functions.typo.tick-source=eventbrige"))
                .hasStackTraceContaining("cloudlock.functions.typo.tick-source: Unknown tick source 'eventbrige'");
        assertThatThrownBy(() -> context.getBean(GuardedFunctions.class).guard("unknown", x -> x))
                .hasMessageContaining("cloudlock.functions.unknown.tick-source");
    }

    /** An application's own around-wrapper that records the functions it fires for. */
    @Configuration(proxyBeanMethods = false)
    static class CountingWrapper {
        static final List<String> calls = new CopyOnWriteArrayList<>();

        @Bean
        FunctionAroundWrapper countingWrapper() {
            return new FunctionAroundWrapper() {
                @Override
                protected Object doApply(Object input, FunctionInvocationWrapper targetFunction) {
                    calls.add(targetFunction.getFunctionDefinition());
                    return targetFunction.apply(input);
                }
            };
        }
    }
}
