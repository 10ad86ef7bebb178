package dev.cloudlock.function.spring;

import static dev.cloudlock.function.spring.ScheduledFunctionsApp.runs;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.function.adapter.aws.FunctionInvoker;

/**
 * The functions behind Spring Cloud Function's AWS adapter ({@link FunctionInvoker}, the handler a Lambda
 * deployment names), fed the EventBridge scheduled event JSON as Lambda passes it. Three invokers stand for three
 * execution environments (each runs one invocation at a time, as Lambda does); the same occurrence reaches all
 * three at once, then once more. DynamoDB on dynalite.
 */
class AwsFunctionInvokerTest {

    /** The body's result as the adapter writes it: a JSON string. */
    private static final String ACQUIRED = "\"report built by nightlyReport\"";

    @BeforeAll
    static void configure() {
        System.setProperty("MAIN_CLASS", ScheduledFunctionsApp.class.getName());
        System.setProperty("cloudlock.test.table", "scf-aws-" + UUID.randomUUID());
    }

    @AfterAll
    static void clear() {
        System.clearProperty("MAIN_CLASS");
        System.clearProperty("cloudlock.test.table");
    }

    @BeforeEach
    void reset() {
        ScheduledFunctionsApp.reset();
    }

    private static String invoke(FunctionInvoker invoker, String event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            invoker.handleRequest(
                    new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)),
                    out,
                    new LambdaContext(UUID.randomUUID().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The same event into each invoker at once; their responses. */
    private static List<String> deliverConcurrently(List<FunctionInvoker> invokers, String event) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(invokers.size());
        try {
            CyclicBarrier start = new CyclicBarrier(invokers.size());
            List<Future<String>> responses = invokers.stream()
                    .map(invoker -> pool.submit(() -> {
                        start.await(20, TimeUnit.SECONDS);
                        return invoke(invoker, event);
                    }))
                    .toList();
            List<String> result = new ArrayList<>();
            for (Future<String> response : responses) {
                result.add(response.get(60, TimeUnit.SECONDS));
            }
            return result;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<FunctionInvoker> environments(String function) {
        return IntStream.range(0, 3)
                .mapToObj(i -> new FunctionInvoker(function))
                .toList();
    }

    @Test
    void aroundWrapperGuardsTheFunctionBehindTheAwsAdapter() throws Exception {
        List<FunctionInvoker> invokers = environments("nightlyReport");
        String event = Events.eventBridge("2026-11-30T02:00:00Z");
        List<String> responses = deliverConcurrently(invokers, event);
        assertThat(runs("nightlyReport")).isEqualTo(1);
        assertThat(responses).containsOnlyOnce(ACQUIRED);
        assertThat(responses)
                .filteredOn(r -> !r.equals(ACQUIRED))
                .allMatch(r -> r.equals("\"BUSY\"") || r.equals("\"DONE\""));
        assertThat(invoke(invokers.get(0), event))
                .as("a retry after it completed")
                .isEqualTo("\"DONE\"");
        assertThat(invoke(invokers.get(1), Events.eventBridge("2026-11-30T03:00:00Z")))
                .as("the next occurrence")
                .isEqualTo(ACQUIRED);
        assertThat(runs("nightlyReport")).isEqualTo(2);
    }

    @Test
    void decoratedFunctionIsGuardedBehindTheAwsAdapter() throws Exception {
        List<FunctionInvoker> invokers = environments("guardedReport");
        deliverConcurrently(invokers, Events.eventBridge("2026-11-30T02:00:00Z"));
        assertThat(runs("guardedReport")).isEqualTo(1);
        invoke(invokers.get(2), Events.eventBridge("2026-11-30T02:00:40Z"));
        assertThat(runs("guardedReport"))
                .as("within the one-minute resolution: the same tick")
                .isEqualTo(1);
    }

    /**
     * The first attempt of a tick runs in one execution environment and fails while the same event reaches another.
     * Lambda retries a failed invocation; the first attempt's own retries are taken as used up, so only the
     * duplicate can still bring the tick back. Returns the duplicate's response, or what it threw.
     */
    private static Object firstAttemptFailsWhileADuplicateIsAnswered(String function, String event) throws Exception {
        List<FunctionInvoker> invokers = environments(function);
        ScheduledFunctionsApp.failingStarted = new java.util.concurrent.CountDownLatch(1);
        ScheduledFunctionsApp.failingRelease = new java.util.concurrent.CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> first = pool.submit(() -> invoke(invokers.get(0), event));
            assertThat(ScheduledFunctionsApp.failingStarted.await(30, TimeUnit.SECONDS))
                    .as("the first attempt started")
                    .isTrue();
            Object duplicate;
            try {
                duplicate = invoke(invokers.get(1), event);
            } catch (RuntimeException e) {
                duplicate = e;
            } finally {
                ScheduledFunctionsApp.failingRelease.countDown();
            }
            Object firstOutcome;
            try {
                firstOutcome = first.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                firstOutcome = e.getCause();
            }
            assertThat(firstOutcome).as("the first attempt failed").isInstanceOf(Throwable.class);
            return duplicate;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withBusyRetryATickWhoseFirstAttemptFailsWhileADuplicateIsAnsweredStillRunsOnce() throws Exception {
        String event = Events.eventBridge("2026-11-30T05:00:00Z");
        Object duplicate = firstAttemptFailsWhileADuplicateIsAnswered("busyRetryReport", event);
        assertThat(duplicate).as("the invocation fails, so Lambda retries it").isInstanceOf(Throwable.class);
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = (Throwable) duplicate; t != null; t = t.getCause()) {
            chain.add(t);
        }
        assertThat(chain).hasAtLeastOneElementOfType(dev.cloudlock.function.TickBusyException.class);
        FunctionInvoker retry = new FunctionInvoker("busyRetryReport");
        assertThat(invoke(retry, event)).as("Lambda's retry").isEqualTo("\"report built by busyRetryReport\"");
        assertThat(invoke(retry, event)).isEqualTo("\"DONE\"");
        assertThat(runs("busyRetryReport")).as("successful runs of the tick").isEqualTo(1);
    }

    @Test
    void withBusySkipTheSameTickIsLost() throws Exception {
        String event = Events.eventBridge("2026-11-30T05:00:00Z");
        Object duplicate = firstAttemptFailsWhileADuplicateIsAnswered("busySkipReport", event);
        assertThat(duplicate)
                .as("a normal return: Lambda will not deliver it again")
                .isEqualTo("\"BUSY\"");
        assertThat(runs("busySkipReport")).as("successful runs of the tick").isEqualTo(0);
    }

    /**
     * A tick's first attempt fails and Lambda's retry of it (about a minute later) arrives after the next tick of a
     * one-minute schedule ran. Each delivery reaches an execution environment of its own. Returns the retry's
     * response.
     */
    private static String aRetryAfterTheNextTickRan(String function) {
        // recent ticks: one older than the occurrence records' retention (7 days) would be refused
        java.time.Instant firstTime = java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.MINUTES)
                .minus(java.time.Duration.ofMinutes(10));
        String first = Events.eventBridge(firstTime.toString());
        Object failed;
        try {
            failed = invoke(new FunctionInvoker(function), first);
        } catch (RuntimeException e) {
            failed = e;
        }
        assertThat(failed).as("the first attempt fails").isInstanceOf(RuntimeException.class);
        assertThat(invoke(
                        new FunctionInvoker(function),
                        Events.eventBridge(firstTime.plusSeconds(60).toString())))
                .as("the next tick")
                .isEqualTo("\"report built by " + function + "\"");
        return invoke(new FunctionInvoker(function), first);
    }

    @Test
    void withEveryOccurrenceALateRetryOfAFailedTickRunsAfterTheNextTickRan() {
        assertThat(aRetryAfterTheNextTickRan("everyOccurrenceReport"))
                .isEqualTo("\"report built by everyOccurrenceReport\"");
        assertThat(runs("everyOccurrenceReport")).as("both ticks ran").isEqualTo(2);
    }

    @Test
    void withTheWatermarkTheSameLateRetryIsSkippedAsDone() {
        assertThat(aRetryAfterTheNextTickRan("watermarkReport")).isEqualTo("\"DONE\"");
        assertThat(runs("watermarkReport")).as("the first tick is lost").isEqualTo(1);
    }
}
