package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * Without a provider bean, the guard locks in the store the environment names with the variables every function guard
 * reads ({@code CLOUDLOCK_STORE}, {@code CLOUDLOCK_<STORE>_<SETTING>}), on the application's client: DynamoDB on
 * dynalite.
 */
class StoreFromTheEnvironmentTest {

    /** An application that defines a guarded function and its DynamoDB client, and no lock provider. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class NoProvider {
        @Bean
        public Function<Message<Map<String, Object>>, String> hourlySync(GuardedFunctions guards) {
            return guards.guard(
                    "hourlySync", request -> "synced " + request.getPayload().get("source"));
        }
    }

    private static ConfigurableApplicationContext start(String job, String... variables) {
        String[] arguments = new String[variables.length + 3];
        arguments[0] = "--cloudlock.functions.hourlySync.tick-source=cloud-scheduler";
        arguments[1] = "--cloudlock.functions.hourlySync.job-name=" + job;
        arguments[2] = "--cloudlock.functions.hourlySync.tick-resolution=PT1M";
        System.arraycopy(variables, 0, arguments, 3, variables.length);
        return new SpringApplicationBuilder(NoProvider.class, ReadmeExampleTest.Dynalite.class)
                .web(WebApplicationType.NONE)
                .run(arguments);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theVariablesOfTheOtherGuardsNameTheStoreAndEachOccurrenceRunsOnce() {
        String job = "env-" + UUID.randomUUID();
        try (ConfigurableApplicationContext context =
                start(job, "--CLOUDLOCK_STORE=dynamodb", "--CLOUDLOCK_DYNAMODB_TABLE_NAME=shedlock")) {
            Function<Message<Map<String, Object>>, String> sync = context.getBean("hourlySync", Function.class);
            Message<Map<String, Object>> request = MessageBuilder.withPayload(Map.<String, Object>of("source", "crm"))
                    .setHeader("X-CloudScheduler-ScheduleTime", "2026-11-30T02:00:00.120Z")
                    .build();
            assertThat(sync.apply(request)).isEqualTo("synced crm");
            assertThat(sync.apply(request)).as("the same occurrence again").isNull();
            assertThat(context.getBean(CloudLockProvider.class).admin().show(job))
                    .as("the lock record in the table the variable names")
                    .isPresent();
        }
    }

    @Test
    void aMissingOrRetiredVariableFailsTheStartupNamingTheVariable() {
        assertThatThrownBy(
                        () -> start("env-missing", "--CLOUDLOCK_STORE=dynamodb").close())
                .rootCause()
                .hasMessageStartingWith("CLOUDLOCK_DYNAMODB_TABLE_NAME is not set");
        assertThatThrownBy(
                        () -> start("env-retired", "--CLOUDLOCK_STORE=dynamodb", "--CLOUDLOCK_DYNAMODB_TABLE=shedlock")
                                .close())
                .rootCause()
                .hasMessageContaining("set CLOUDLOCK_DYNAMODB_TABLE_NAME instead");
    }
}
