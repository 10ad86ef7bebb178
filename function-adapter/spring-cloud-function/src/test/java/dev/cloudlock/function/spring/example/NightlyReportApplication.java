package dev.cloudlock.function.spring.example;

// snippet:application
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.function.spring.GuardedFunctions;
import java.util.Map;
import java.util.function.Function;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.Message;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The example of docs/functions/spring-cloud-function.md: two scheduled functions, one guarded by the around-wrapper,
 * one by the decorator.
 */
@SpringBootApplication
public class NightlyReportApplication {

    @Bean
    public CloudLockProvider cloudLockProvider(DynamoDbClient dynamoDb) {
        return DynamoDbLockProvider.builder()
                .client(dynamoDb)
                .tableName("shedlock")
                .build();
    }

    /**
     * Deployed behind the AWS adapter's FunctionInvoker, which calls it with a Message: the around-wrapper guards it.
     */
    @Bean
    public Function<Map<String, Object>, String> nightlyReport() {
        return event -> "report for " + event.get("time")
                + GuardedFunctions.currentTick()
                        .map(run -> " (fencing token " + run.fencingToken() + ")")
                        .orElse("");
    }

    /** Decorated: guarded however it is called (directly injected, plain objects, concurrent requests). */
    @Bean
    public Function<Message<Map<String, Object>>, String> hourlySync(GuardedFunctions guards) {
        return guards.guard(
                "hourlySync", request -> "synced " + request.getPayload().get("source"));
    }
}
// end-snippet:application
