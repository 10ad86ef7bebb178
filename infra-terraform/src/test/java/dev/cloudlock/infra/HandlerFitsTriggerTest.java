package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The handlers the docs and the example package give fit the trigger {@code aws-scheduled-lambda} creates (read from
 * its {@code .tf}), each loaded from the example's package as Lambda would load it; a handler for the other trigger is
 * reported as a mismatch naming the handler class that fits.
 */
class HandlerFitsTriggerTest {

    private static final Path PACKAGE = Path.of(System.getProperty(
            "cloudlock.lambda.package", "../examples/aws-lambda-function/target/nightly-report-lambda-1.0.0.jar"));
    private static final Path AWS_PAGE = Node.INFRA_DIR.getParent().resolve("docs/functions/aws-lambda.md");

    private static TerraformModule module;
    private static URLClassLoader packageClassPath;

    @BeforeAll
    static void load() throws IOException {
        assertThat(PACKAGE)
                .as("the example's package: build it with ./mvnw package -pl examples/aws-lambda-function -am")
                .exists();
        Map<String, TerraformModule> modules = TerraformModule.parseAll(Node.INFRA_DIR.resolve("modules"));
        module = modules.get("aws-scheduled-lambda");
        // the package alone, as Lambda's runtime has it: nothing of this test's class path but the JDK
        packageClassPath =
                new URLClassLoader(new URL[] {PACKAGE.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    @AfterAll
    static void close() throws IOException {
        packageClassPath.close();
    }

    /** The handler the AWS page tells the user to configure, read from its {@code Handler `...`} line. */
    private static String docsHandler() throws IOException {
        Matcher line = Pattern.compile("^Handler `([^`]+)`", Pattern.MULTILINE).matcher(Files.readString(AWS_PAGE));
        assertThat(line.find()).as("a 'Handler `...`' line in " + AWS_PAGE).isTrue();
        return line.group(1);
    }

    @Test
    void theModuleTriggersItsFunctionThroughEventBridgeScheduler() {
        assertThat(HandlerFitsTrigger.triggerOf(module)).isEqualTo(HandlerFitsTrigger.Trigger.SCHEDULER);
    }

    @Test
    void theDocsHandlerFitsTheModulesTrigger() throws IOException {
        String handler = docsHandler();
        assertThat(HandlerFitsTrigger.mismatch(module, handler, packageClassPath))
                .as(handler)
                .isEmpty();
    }

    @Test
    void theExamplesHandlerOverLambdaTickGuardFitsTheModulesTrigger() {
        assertThat(HandlerFitsTrigger.mismatch(
                        module, "dev.cloudlock.examples.HourlySyncLambda::handleRequest", packageClassPath))
                .isEmpty();
    }

    @Test
    void aRuleEventHandlerIsAMismatchNamingTheHandlerThatFits() {
        assertThat(HandlerFitsTrigger.mismatch(
                        module,
                        RuleEventNightlyReport.class.getName() + "::handleRequest",
                        HandlerFitsTriggerTest.class.getClassLoader()))
                .hasValueSatisfying(problem -> assertThat(problem)
                        .contains("aws_scheduler_schedule")
                        .contains(RuleEventNightlyReport.class.getName())
                        .contains("ScheduledEvent")
                        .contains("dev.cloudlock.function.aws.GuardedSchedulerHandler"));
    }

    @Test
    void aHandlerThePackageDoesNotHaveIsReportedAsSuch() {
        assertThat(HandlerFitsTrigger.mismatch(module, "com.example.DemoJob::handleRequest", packageClassPath))
                .hasValueSatisfying(problem -> assertThat(problem).contains("com.example.DemoJob"));
    }
}
