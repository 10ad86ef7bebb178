package dev.cloudlock.examples;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.TickBusyException;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.WhenBusy;
import dev.cloudlock.testkit.LockHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The demo: a fleet of function instances behind an at-least-once scheduler, every delivery going through the
 * real {@link TickGuard} and a real implementation of the store SPI: the in-memory store by default (so the demo
 * needs only a JDK), or a provider on its emulator, started here on 127.0.0.1 ({@code --store dynamodb} or
 * {@code s3} on moto, {@code --store firestore} on the Cloud Firestore emulator, {@code --store azure-blob} on Azurite,
 * {@code --store azure-table} on Azurite's table service, {@code --store cosmos} on our Cosmos
 * DB launcher).
 *
 * <p>A tick is scheduled every interval. The simulated scheduler delivers it to a random instance, and, by a fixed
 * pattern so that every run shows every case: twice at once (tick 3, 6, ...), once more late (tick 1, 5, ...); the
 * job fails on its first attempt for some ticks (2, 7, 8, ...) and runs longer than the interval for others (3,
 * 10, ...). Like a platform retrying an invocation error, it redelivers a delivery that failed after 0.3 intervals;
 * the failed first attempts of ticks 8, 18, ... are retried only after 2.5 intervals, once the next tick ran (as
 * Lambda's first retry, about a minute later, comes on a one-minute schedule). With
 * {@code --busy retry} (the default here) the guard fails a delivery that finds the job busy
 * ({@link dev.cloudlock.function.TickBusyException}, counted as {@code BUSY_RETRY}), so it is redelivered too, and
 * every tick runs successfully exactly once; with {@code --busy skip} such a delivery is acknowledged as
 * {@code BUSY} and never comes back, so the tick after an overrunning one is lost. With {@code --no-guard}
 * every delivery runs the job.
 *
 * <p>Those late retries show the job's watermark (stored as {@code lastTick}): a retry of an older tick that arrives
 * after a newer tick completed is skipped as done, so tick 8 is lost (and 18, as the timing falls). With
 * {@code --every-occurrence} the guard
 * records each occurrence on its own ({@link dev.cloudlock.core.CompletedTicks#EVERY_OCCURRENCE}), and with
 * {@code --busy retry} every tick runs successfully exactly once.
 *
 * <p>Each successful run writes the job's report with its fencing token. With {@code --pause} the first run of tick 4
 * pauses past its lease before it writes (a long GC pause, a frozen container): another instance takes the lock
 * meanwhile and writes the report with a newer token, and the report refuses the paused run's late write, as a fenced
 * write to a store does ({@link FencingTokens}); that run counts as failed, and its tick is retried. With
 * {@code --no-fence} as well, the late write lands over the newer run's report.
 *
 * <p>Options: {@code --instances N} (5), {@code --seconds N} (20),
 * {@code --store NAME} (in-memory; or any store on the class path that has an emulator here), {@code --busy retry|skip}
 * (retry), {@code --every-occurrence}, {@code --pause}, {@code --no-fence}, {@code --no-guard},
 * {@code --timeline FILE} (fleet-timeline.svg).
 */
public final class FleetDemo {

    /**
     * One execution of the job body: who ran which tick when, with which fencing token, whether it failed, and whether
     * a retry delivery ({@code attempt > 0}) started it. Ticks are numbered from 0, one per interval: {@code
     * tickNumber} is that number, the row label and colour of the run in the timeline.
     */
    public record Execution(
            String instance,
            int tickNumber,
            int attempt,
            long fencingToken,
            long startNanos,
            long endNanos,
            boolean failed,
            @Nullable Long refusedBy) {

        /**
         * When this run's holding of the lock ended: its end, or its lease's end for a run paused past its lease
         * (another holder could take the lock from then on).
         */
        long holdingEndNanos() {
            return Math.min(endNanos, startNanos + LEASE.toNanos());
        }
    }

    /** A delivery the guard skipped: which instance, the number of which tick, when, and why. */
    public record Skip(String instance, int tickNumber, DeliveryOutcome outcome, long atNanos) {}

    /**
     * What one delivery came to, as the demo counts them: the guard's {@link TickStatus} values, {@link #FAILED} for a
     * delivery whose job threw (the guard rethrows it, and the simulated scheduler retries the delivery), and {@link
     * #BUSY_RETRY} for a delivery the guard failed because the job was busy (retried the same way).
     */
    public enum DeliveryOutcome {
        ACQUIRED,
        BUSY,
        DONE,
        BUSY_RETRY,
        FAILED;

        static DeliveryOutcome of(TickStatus outcome) {
            return valueOf(outcome.name());
        }
    }

    /** What a run did. */
    public record Summary(
            int instances,
            int ticks,
            int deliveries,
            int retries,
            Map<DeliveryOutcome, Integer> outcomes,
            List<Execution> executions,
            List<Skip> skips,
            Map<Integer, Integer> successesPerTick,
            List<String> violations,
            boolean guarded,
            WhenBusy whenBusy,
            boolean everyOccurrence,
            long originNanos,
            int staleWritesLanded) {

        /** Runs whose late write of the report was refused: their lease had run out and a newer run had written. */
        public List<Execution> refusedLateWrites() {
            return executions.stream().filter(e -> e.refusedBy() != null).toList();
        }

        /** True when every scheduled tick ran successfully exactly once. */
        public boolean eachTickRanOnce() {
            return successesPerTick.size() == ticks
                    && successesPerTick.values().stream().allMatch(n -> n == 1);
        }

        public long failures() {
            return executions.stream().filter(Execution::failed).count();
        }

        /** Scheduled ticks that never ran successfully. */
        public int ticksLost() {
            return ticks - successesPerTick.size();
        }

        /**
         * Lost ticks a delivery found done because a newer tick had completed: the watermark's skip, which
         * {@code --every-occurrence} avoids.
         */
        public long ticksSuperseded() {
            return skips.stream()
                    .filter(skip ->
                            skip.outcome() == DeliveryOutcome.DONE && !successesPerTick.containsKey(skip.tickNumber()))
                    .map(Skip::tickNumber)
                    .distinct()
                    .count();
        }

        /** Ticks that ran successfully more than once (with the guard: must be 0). */
        public long ticksRunTwice() {
            return successesPerTick.values().stream().filter(n -> n > 1).count();
        }
    }

    private static final int MAX_ATTEMPTS = 20;
    /** The tick whose first run {@code --pause} pauses past its lease. */
    private static final int PAUSED_TICK = 4;
    /** The time a delivery tells the guard it has left, and the lease that gives (plus the margin). */
    private static final Duration REMAINING = Duration.ofSeconds(5);

    private static final Duration LEASE = REMAINING.plusSeconds(1);

    /**
     * The job's one output, a report each successful run writes with its fencing token. Fenced, it refuses a token
     * older than the newest it was written with ({@link FencingTokens#check}), as a fenced write to a real store
     * does; unfenced, the last writer wins, whatever its token.
     */
    static final class Report {
        private final boolean fenced;
        private @Nullable Long token;

        Report(boolean fenced) {
            this.fenced = fenced;
        }

        private int staleWritesLanded;

        synchronized void write(long fencingToken) {
            if (fenced) {
                FencingTokens.check("the nightly report", token, fencingToken);
            } else if (!FencingTokens.admits(token, fencingToken)) {
                staleWritesLanded++;
            }
            token = token == null ? fencingToken : Math.max(token, fencingToken);
        }

        /** Whether a run with a newer token than {@code fencingToken} has written. */
        synchronized boolean newerThan(long fencingToken) {
            return token != null && token > fencingToken;
        }

        /** Writes that landed although a newer token had written already (only unfenced). */
        synchronized int staleWritesLanded() {
            return staleWritesLanded;
        }
    }

    private FleetDemo() {}

    public static void main(String[] args) throws Exception {
        // The guard logs each failed attempt with its stack trace; here the summary tells the story.
        System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock.function.TickGuard", "error");
        int instances = 5;
        int seconds = 20;
        boolean guard = true;
        String store = "in-memory";
        WhenBusy whenBusy = WhenBusy.RETRY;
        boolean everyOccurrence = false;
        int pausedTick = -1;
        boolean fenced = true;
        Path timeline = Path.of("fleet-timeline.svg");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--instances" -> instances = positive(args, ++i);
                case "--seconds" -> seconds = positive(args, ++i);
                case "--no-guard" -> guard = false;
                case "--timeline" -> timeline = Path.of(value(args, ++i));
                case "--store" -> store = value(args, ++i);
                case "--busy" -> whenBusy = WhenBusy.parse(value(args, ++i), "--busy");
                case "--every-occurrence" -> everyOccurrence = true;
                case "--pause" -> pausedTick = PAUSED_TICK;
                case "--no-fence" -> fenced = false;
                default ->
                    throw new IllegalArgumentException("Unknown option '" + args[i] + "'. Options:"
                            + " --instances N, --seconds N, --store " + String.join("|", DemoStore.NAMES)
                            + ", --busy retry|skip, --every-occurrence, --pause, --no-fence, --no-guard,"
                            + " --timeline FILE");
            }
        }
        DemoStore demoStore = DemoStore.start(store);
        demoStore.emulator().ifPresent(emulator -> System.out.println("Emulator started: " + emulator));
        int exit;
        try {
            Summary summary = run(
                    demoStore::provider,
                    instances,
                    seconds,
                    Duration.ofSeconds(1),
                    guard,
                    whenBusy,
                    everyOccurrence,
                    pausedTick,
                    fenced);
            System.out.println(
                    (guard
                            ? "With the cloudlock guard (" + demoStore.description() + ", --busy "
                                    + whenBusy.name().toLowerCase(java.util.Locale.ROOT)
                                    + (everyOccurrence ? ", --every-occurrence" : ", the watermark") + "):"
                            : "Without a guard (--no-guard):"));
            print(summary);
            Files.writeString(timeline, Timeline.svg(summary));
            System.out.println("Timeline: " + timeline.toAbsolutePath());
            // --busy skip, and the watermark's late retries, lose ticks by design (that is what they show); neither
            // may ever run one twice.
            // A run paused for its whole lease may make other ticks run out of retries: lost, never run twice.
            boolean expected = whenBusy == WhenBusy.RETRY && everyOccurrence && pausedTick < 0
                    ? summary.eachTickRanOnce() && summary.violations().isEmpty()
                    : summary.ticksRunTwice() == 0 && summary.violations().isEmpty();
            exit = guard && fenced && !(expected && summary.staleWritesLanded() == 0) ? 1 : 0;
        } finally {
            demoStore.emulator().ifPresent(EmulatorProcess::close);
        }
        System.exit(exit);
    }

    /** {@link #run(Function, int, int, Duration, boolean, WhenBusy, boolean)}: busy deliveries retried, a watermark. */
    public static Summary run(
            Function<String, CloudLockProvider> providers,
            int instances,
            int seconds,
            Duration interval,
            boolean guarded)
            throws InterruptedException {
        return run(providers, instances, seconds, interval, guarded, WhenBusy.RETRY, false, -1, true);
    }

    /** {@link #run(Function, int, int, Duration, boolean, WhenBusy, boolean, int, boolean)}: no run paused. */
    public static Summary run(
            Function<String, CloudLockProvider> providers,
            int instances,
            int seconds,
            Duration interval,
            boolean guarded,
            WhenBusy whenBusy,
            boolean everyOccurrence)
            throws InterruptedException {
        return run(providers, instances, seconds, interval, guarded, whenBusy, everyOccurrence, -1, true);
    }

    /**
     * Runs the fleet for about {@code seconds}, instance {@code i} guarded through
     * {@code providers.apply("instance-" + i)}, busy deliveries answered as {@code whenBusy} says, completed ticks
     * recorded per occurrence when {@code everyOccurrence} (else as the job's watermark). The first run of tick
     * {@code pausedTick} (none when negative) pauses past its lease before it writes the report (a long GC pause, a
     * frozen container); the report refuses its late write unless {@code fenced} is false.
     */
    public static Summary run(
            Function<String, CloudLockProvider> providers,
            int instances,
            int seconds,
            Duration interval,
            boolean guarded,
            WhenBusy whenBusy,
            boolean everyOccurrence,
            int pausedTick,
            boolean fenced)
            throws InterruptedException {
        Report report = new Report(fenced);
        AtomicInteger paused = new AtomicInteger();
        AtomicInteger pausedInstance = new AtomicInteger(-1);
        List<TickGuard> guards = new ArrayList<>();
        List<ExecutorService> fleet = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            guards.add(TickGuard.builder(providers.apply("instance-" + i))
                    .settings(GuardSettings.builder()
                            .leaseMargin(Duration.ofSeconds(1))
                            .whenBusy(whenBusy)
                            .completedTicks(
                                    everyOccurrence ? CompletedTicks.EVERY_OCCURRENCE : CompletedTicks.WATERMARK)
                            .build())
                    .build());
            fleet.add(Executors.newSingleThreadExecutor()); // an instance handles one invocation at a time
        }
        String job = "nightly-report-" + System.nanoTime();
        int ticks = Math.max(1, (int) (Duration.ofSeconds(seconds).toMillis() / interval.toMillis()));
        // a day ago, on the hour: the ticks lie in the past and within the occurrence records' retention (7 days),
        // which refuses older ones
        Instant firstTick =
                Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).minus(Duration.ofDays(1));
        Map<DeliveryOutcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Execution> executions = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Skip> skips = new ConcurrentLinkedQueue<>();
        Map<Integer, AtomicInteger> attemptsPerTick = new ConcurrentHashMap<>();
        AtomicInteger deliveries = new AtomicInteger();
        AtomicInteger retries = new AtomicInteger();
        AtomicInteger pending = new AtomicInteger();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        long origin = System.nanoTime();

        class Delivery implements Runnable {
            final int tick;
            final int attempt;

            Delivery(int tick, int attempt) {
                this.tick = tick;
                this.attempt = attempt;
            }

            @Override
            public void run() {
                deliveries.incrementAndGet();
                int chosen = Math.floorMod((tick * 7 + attempt * 3 + deliveries.get()), instances);
                // a paused instance (a frozen container) takes no invocations: the platform sends them elsewhere
                int instance = chosen == pausedInstance.get() && instances > 1 ? (chosen + 1) % instances : chosen;
                fleet.get(instance).execute(() -> invoke(instance));
            }

            private void invoke(int instance) {
                String name = "instance-" + instance;
                DeliveryOutcome outcome;
                try {
                    Tick occurrence = new Tick(job, firstTick.plus(interval.multipliedBy(tick)));
                    if (guarded) {
                        outcome = DeliveryOutcome.of(guards.get(instance)
                                .run(occurrence, REMAINING, context -> body(name, context.fencingToken())));
                    } else {
                        body(name, 0);
                        outcome = DeliveryOutcome.ACQUIRED;
                    }
                } catch (TickBusyException busy) {
                    outcome = DeliveryOutcome.BUSY_RETRY;
                } catch (Exception failed) {
                    outcome = DeliveryOutcome.FAILED;
                }
                outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
                if (outcome == DeliveryOutcome.BUSY
                        || outcome == DeliveryOutcome.DONE
                        || outcome == DeliveryOutcome.BUSY_RETRY) {
                    skips.add(new Skip(name, tick, outcome, System.nanoTime() - origin));
                }
                // A platform retries a failed invocation only: an acknowledged skip never comes back.
                boolean retry = outcome == DeliveryOutcome.FAILED || outcome == DeliveryOutcome.BUSY_RETRY;
                if (retry && attempt + 1 < MAX_ATTEMPTS) {
                    retries.incrementAndGet();
                    pending.incrementAndGet();
                    // The first retry of ticks 8, 18, ... comes after the next tick ran.
                    long delay = tick % 10 == 8 && attempt == 0
                            ? interval.toMillis() * 25 / 10
                            : interval.toMillis() * 3 / 10;
                    scheduler.schedule(new Delivery(tick, attempt + 1), delay, TimeUnit.MILLISECONDS);
                }
                pending.decrementAndGet();
            }

            private void body(String instance, long token) throws InterruptedException {
                long start = System.nanoTime();
                boolean fail = (tick % 5 == 2 || tick % 10 == 8)
                        && attemptsPerTick
                                        .computeIfAbsent(tick, t -> new AtomicInteger())
                                        .getAndIncrement()
                                == 0;
                boolean pause = tick == pausedTick && !fail && paused.getAndIncrement() == 0;
                long work = fail
                        ? interval.toMillis() / 10
                        : pause
                                ? LEASE.toMillis()
                                : tick % 7 == 3 ? interval.toMillis() * 3 / 2 : interval.toMillis() / 4;
                if (pause) {
                    pausedInstance.set(Integer.parseInt(instance.substring(instance.lastIndexOf('-') + 1)));
                }
                Thread.sleep(work);
                if (pause) {
                    // past its lease, the pause lasts until another instance has taken the lock and written (at most
                    // ten intervals more), however slowly a loaded machine lets that happen
                    long resume = System.nanoTime() + interval.multipliedBy(10).toNanos();
                    while (!report.newerThan(token) && System.nanoTime() < resume) {
                        Thread.sleep(10);
                    }
                    pausedInstance.set(-1);
                }
                Long refusedBy = null;
                if (!fail) {
                    try {
                        report.write(token);
                    } catch (StaleFencingTokenException late) {
                        refusedBy = late.storedToken();
                    }
                }
                executions.add(new Execution(
                        instance,
                        tick,
                        attempt,
                        token,
                        start - origin,
                        System.nanoTime() - origin,
                        fail || refusedBy != null,
                        refusedBy));
                if (fail) {
                    throw new IllegalStateException("tick " + tick + ": downstream unavailable");
                }
                if (refusedBy != null) {
                    throw new IllegalStateException(
                            "tick " + tick + ": the report refused this run's late write (fencing token " + token
                                    + " < " + refusedBy + ")");
                }
            }
        }

        for (int tick = 0; tick < ticks; tick++) {
            long due = tick * interval.toMillis();
            pending.incrementAndGet();
            scheduler.schedule(new Delivery(tick, 0), due, TimeUnit.MILLISECONDS);
            if (tick % 3 == 0) { // delivered twice at once
                pending.incrementAndGet();
                scheduler.schedule(new Delivery(tick, 0), due, TimeUnit.MILLISECONDS);
            }
            if (tick % 4 == 1) { // delivered once more, late
                pending.incrementAndGet();
                scheduler.schedule(new Delivery(tick, 0), due + interval.toMillis() * 3 / 2, TimeUnit.MILLISECONDS);
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds + 30L).toNanos();
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            long done = executions.stream().filter(e -> !e.failed()).count();
            System.out.printf(
                    "\r%5.1f s: %d deliveries, %d successful executions ",
                    (System.nanoTime() - origin) / 1e9, deliveries.get(), done);
        }
        System.out.println();
        scheduler.shutdownNow();
        fleet.forEach(ExecutorService::shutdownNow);

        LockHistory history = new LockHistory();
        Map<Integer, Integer> successes = new TreeMap<>();
        for (Execution e : executions) {
            history.record(
                    e.instance() + " tick " + e.tickNumber(), e.fencingToken(), e.startNanos(), e.holdingEndNanos());
            if (!e.failed()) {
                successes.merge(e.tickNumber(), 1, Integer::sum);
            }
        }
        Map<DeliveryOutcome, Integer> counted = new TreeMap<>();
        outcomes.forEach((o, n) -> counted.put(o, n.get()));
        List<Execution> ordered = new ArrayList<>(executions);
        ordered.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return new Summary(
                instances,
                ticks,
                deliveries.get(),
                retries.get(),
                counted,
                ordered,
                List.copyOf(skips),
                successes,
                history.violations(),
                guarded,
                whenBusy,
                everyOccurrence,
                origin,
                report.staleWritesLanded());
    }

    private static void print(Summary s) {
        System.out.printf("  instances                 %d%n", s.instances());
        System.out.printf("  ticks scheduled           %d%n", s.ticks());
        System.out.printf("  deliveries                %d%n", s.deliveries());
        System.out.printf("  retries                   %d%n", s.retries());
        System.out.printf(
                "  executions                %d (%d failed and were retried)%n",
                s.executions().size(), s.failures());
        System.out.printf("  ran                       %d%n", s.outcomes().getOrDefault(DeliveryOutcome.ACQUIRED, 0));
        System.out.printf("  skipped as busy           %d%n", s.outcomes().getOrDefault(DeliveryOutcome.BUSY, 0));
        System.out.printf("  skipped as done           %d%n", s.outcomes().getOrDefault(DeliveryOutcome.DONE, 0));
        System.out.printf("  busy, asked for a retry   %d%n", s.outcomes().getOrDefault(DeliveryOutcome.BUSY_RETRY, 0));
        System.out.printf(
                "  every tick ran once       %s%n",
                s.eachTickRanOnce() ? "yes" : "NO: successful runs per tick " + s.successesPerTick());
        List<String> why = new ArrayList<>();
        long superseded = s.ticksSuperseded();
        if (s.guarded() && superseded > 0) {
            why.add(superseded + " retried after a newer tick completed (skipped as done): use --every-occurrence");
        }
        if (s.guarded() && s.ticksLost() > superseded) {
            why.add((s.ticksLost() - superseded)
                    + (s.whenBusy() == WhenBusy.SKIP
                            ? " found the job busy (acknowledged): use --busy retry"
                            : " ran out of retries"));
        }
        System.out.printf(
                "  ticks lost                %d%s%n",
                s.ticksLost(), why.isEmpty() ? "" : " (" + String.join("; ", why) + ")");
        System.out.printf("  ticks run twice           %d%n", s.ticksRunTwice());
        for (Execution late : s.refusedLateWrites()) {
            System.out.printf(
                    "  late write refused        %s, tick %d, fencing token %d: paused past its lease; the report"
                            + " holds token %d%n",
                    late.instance(), late.tickNumber(), late.fencingToken(), late.refusedBy());
        }
        System.out.printf(
                "  stale writes landed       %d%s%n",
                s.staleWritesLanded(),
                s.staleWritesLanded() == 0
                        ? ""
                        : " (a run paused past its lease overwrote a newer run's report: --no-fence)");
        System.out.printf(
                "  overlaps detected         %s%n",
                s.violations().stream().filter(v -> v.startsWith("overlap")).count());
        System.out.printf(
                "  fencing tokens in order   %s%n",
                s.violations().stream().noneMatch(v -> v.startsWith("fencing")) ? "yes" : "NO");
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int positive(String[] args, int i) {
        String text = value(args, i);
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " needs a number, got '" + text + "'");
        }
        if (n < 1) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " must be at least 1, got " + n);
        }
        return n;
    }
}
