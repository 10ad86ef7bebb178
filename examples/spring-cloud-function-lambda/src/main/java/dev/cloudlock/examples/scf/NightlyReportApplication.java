package dev.cloudlock.examples.scf;

// snippet:application
import dev.cloudlock.function.spring.GuardedFunctions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A scheduled function deployed with infra-terraform's aws-scheduled-lambda module behind Spring Cloud Function's AWS
 * adapter: the module's EventBridge Scheduler schedule sends {"scheduledTime": ..., "jobName": ...}, and the guard,
 * configured by the variables the module sets, runs the body once per occurrence.
 */
@SpringBootApplication
public class NightlyReportApplication {

    public static void main(String[] args) {
        SpringApplication.run(NightlyReportApplication.class, args);
    }

    @Bean
    public Function<Map<String, Object>, String> nightlyReport(@Value("${report.directory}") Path directory) {
        return schedule -> {
            var run = GuardedFunctions.currentTick().orElseThrow();
            Path report = directory.resolve("report-" + run.scheduledTime().toEpochMilli() + ".txt");
            try {
                // ... build the report; pass run.fencingToken() to what you write
                Files.writeString(report, "report for " + run.scheduledTime() + "\n");
            } catch (IOException e) {
                // the guard releases the occurrence without recording it: Lambda's retry runs it again
                throw new UncheckedIOException(e);
            }
            return "wrote " + report + " (fencing token " + run.fencingToken() + ")";
        };
    }
}
// end-snippet:application
