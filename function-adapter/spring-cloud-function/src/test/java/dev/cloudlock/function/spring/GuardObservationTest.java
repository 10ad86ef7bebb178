package dev.cloudlock.function.spring;

import static dev.cloudlock.function.spring.Events.eventBridge;
import static dev.cloudlock.function.spring.Events.message;
import static dev.cloudlock.function.spring.ScheduledFunctionsApp.runs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.DeliveryListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.function.context.FunctionCatalog;
import org.springframework.cloud.function.context.catalog.SimpleFunctionRegistry.FunctionInvocationWrapper;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;

/**
 * The guard's around-wrapper, being the one Spring Cloud Function honours, keeps Spring Cloud Function's own
 * observation of the functions it calls ({@code spring.cloud.function}), and a {@link DeliveryListener} bean hears every
 * delivery the guard answers. DynamoDB on dynalite, a fresh table per test.
 */
class GuardObservationTest {

    private static final String FUNCTION_OBSERVATION = "spring.cloud.function";
    private static final String DEFINITION = "spring.cloud.function.definition";

    /** What an application with Actuator and cloudlock-micrometer's GuardMeters would have: a registry, a listener. */
    @Configuration(proxyBeanMethods = false)
    static class Observed {
        static final List<Observation.Context> STOPPED = new CopyOnWriteArrayList<>();
        static final List<String> HEARD = new CopyOnWriteArrayList<>();

        @Bean
        ObservationRegistry observationRegistry() {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }

                @Override
                public void onStop(Observation.Context context) {
                    STOPPED.add(context);
                }
            });
            return registry;
        }

        @Bean
        DeliveryListener recordingDeliveryListener() {
            return tick -> new DeliveryListener.Delivery() {
                @Override
                public void answered(TickStatus outcome) {
                    HEARD.add(tick.jobName() + " " + outcome);
                }

                @Override
                public void failed(Throwable failure) {
                    HEARD.add(tick.jobName() + " failed");
                }
            };
        }

        /** A function no guard is configured for. */
        @Bean
        Function<String, String> unguardedEcho() {
            return text -> text;
        }
    }

    private ConfigurableApplicationContext context;
    private FunctionCatalog catalog;

    @BeforeEach
    void start() {
        ScheduledFunctionsApp.reset();
        Observed.STOPPED.clear();
        Observed.HEARD.clear();
        context = new SpringApplicationBuilder(ScheduledFunctionsApp.class, Observed.class)
                .web(WebApplicationType.NONE)
                .run("--cloudlock.test.table=scf-" + UUID.randomUUID());
        catalog = context.getBean(FunctionCatalog.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    private FunctionInvocationWrapper lookup(String name) {
        return catalog.lookup(name, "application/json");
    }

    private static List<String> functionObservations() {
        return Observed.STOPPED.stream()
                .filter(context -> context.getName().equals(FUNCTION_OBSERVATION))
                .map(context -> context.getLowCardinalityKeyValue(DEFINITION).getValue())
                .toList();
    }

    @Test
    void aGuardedFunctionsRunIsObservedBySpringCloudFunctionAndEveryDeliveryIsHeardByTheTickListener() {
        FunctionInvocationWrapper report = lookup("nightlyReport");

        Object first = report.apply(message(eventBridge("2026-11-30T02:00:00Z")));
        Object duplicate = report.apply(message(eventBridge("2026-11-30T02:00:00Z")));

        assertThat(((Message<?>) first).getHeaders().get(TickGuardFunctionAroundWrapper.OUTCOME_HEADER))
                .isEqualTo("ACQUIRED");
        assertThat(runs("nightlyReport")).isEqualTo(1);
        assertThat(functionObservations())
                .as("the run of the body, observed as without the guard; the skipped duplicate ran none")
                .containsExactly("nightlyReport");
        assertThat(Observed.HEARD).containsExactly("nightlyReport ACQUIRED", "nightlyReport DONE");
        assertThat(((Message<?>) duplicate).getHeaders().get(TickGuardFunctionAroundWrapper.OUTCOME_HEADER))
                .isEqualTo("DONE");
    }

    @Test
    void aFunctionWithoutAGuardIsObservedAsWithoutTheGuardsWrapper() {
        Object echoed = lookup("unguardedEcho").apply(message("\"hello\""));

        assertThat(((Message<?>) echoed).getHeaders()).doesNotContainKey(TickGuardFunctionAroundWrapper.OUTCOME_HEADER);
        assertThat(functionObservations()).containsExactly("unguardedEcho");
        assertThat(Observed.HEARD).isEmpty();
    }
}
