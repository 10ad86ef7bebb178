package dev.cloudlock.cli;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.testkit.FaultInjectingStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A child JVM of the process tests, opening its store from the CLI's own options. {@code contend}: connect, print {@code READY}, wait
 * for a line on standard input (so that all contenders start together), then take the lock {@code --holdings} times, writing each holding as {@code fence startNanos endNanos} (times of
 * {@link System#nanoTime()}, which on Linux is {@code CLOCK_MONOTONIC}: one clock for every process of the machine, so
 * the parent can merge the histories). {@code hold}: take the lock once, print {@code HELD <fence> <lockUntil>} and
 * wait to be killed.
 */
@Command(name = "contender")
final class Contender implements Callable<Integer> {

    final StoreOptions store = new StoreOptions();

    @Parameters(index = "0", description = "contend or hold")
    String mode;

    @Parameters(index = "1", description = "the lock name")
    String name;

    @Option(names = "--holdings", defaultValue = "100")
    int holdings;

    @Option(names = "--lease", defaultValue = "PT30S")
    Duration lease;

    @Option(names = "--out")
    Path out;

    @Option(names = "--ignore-conditions", description = "Break the lock on purpose: the negative control.")
    boolean ignoreConditions;

    @Option(
            names = "--clock-offset",
            defaultValue = "PT0S",
            description = "Run this process with ShedLock's clock off by this much (a skewed machine).")
    Duration clockOffset;

    public static void main(String[] args) {
        Contender contender = new Contender();
        CommandLine line = new CommandLine(contender);
        contender.store.addTo(line);
        System.exit(line.execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), clockOffset));
        CloudLockProvider provider = store.provider();
        if (ignoreConditions) {
            provider = new CloudLockProvider(
                    new FaultInjectingStore(provider.store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                    provider.lockedBy());
        }
        if (mode.equals("hold")) {
            FencedLock lock = provider.tryLock(config()).orElseThrow(() -> new IllegalStateException("held"));
            Instant lockUntil = provider.store().read(name).orElseThrow().lockUntil();
            System.out.println("HELD " + lock.fencingToken() + " " + lockUntil);
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(5).toMillis());
            return 0;
        }
        provider.store().read(name); // connected, so that every contender starts at the parent's signal
        System.out.println("READY");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        List<String> lines = new ArrayList<>();
        while (lines.size() < holdings) {
            Optional<FencedLock> lock = provider.tryLock(config());
            if (lock.isEmpty()) {
                Thread.sleep(1); // let the holder's release through rather than flood the store
                continue;
            }
            long start = System.nanoTime();
            Thread.onSpinWait();
            long end = System.nanoTime();
            lines.add(lock.get().fencingToken() + " " + start + " " + end);
            lock.get().unlock();
        }
        Files.write(out, lines);
        return 0;
    }

    private LockConfiguration config() {
        return new LockConfiguration(ClockProvider.now(), name, lease, Duration.ZERO);
    }
}
