package dev.cloudlock.examples;

import dev.cloudlock.core.FencedLock;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockTable;
import dev.cloudlock.testkit.EmulatorProcess;
import dev.cloudlock.testkit.Emulators;
import dev.cloudlock.testkit.LockHistory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The demo: a fleet of instances whose schedulers all fire the same job every second, on DynamoDB (moto, started
 * here on 127.0.0.1). With the lock each tick runs once; with {@code --no-lock} every instance runs every tick.
 *
 * <p>Options: {@code --instances N} (5), {@code --ticks N} (10), {@code --no-lock}.
 */
public final class FleetDemo {

    /** What the run did, as the summary prints it. */
    public record Summary(int instances, int ticks, int attempts, int executions, int skipped,
                          Map<Integer, Integer> executionsPerTick, List<String> violations) {
        public boolean eachTickRanOnce() {
            return executionsPerTick.size() == ticks && executionsPerTick.values().stream().allMatch(n -> n == 1);
        }
    }

    private FleetDemo() {
    }

    public static void main(String[] args) throws Exception {
        int instances = 5;
        int ticks = 10;
        boolean lock = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--instances" -> instances = positive(args, ++i);
                case "--ticks" -> ticks = positive(args, ++i);
                case "--no-lock" -> lock = false;
                default -> throw new IllegalArgumentException("Unknown option '" + args[i]
                        + "'. Options: --instances N, --ticks N, --no-lock");
            }
        }
        EmulatorProcess moto = Emulators.moto();
        System.out.println("DynamoDB (moto) started: " + moto);
        try {
            Summary summary = run(moto.endpoint(), instances, ticks, Duration.ofSeconds(1), lock);
            print(summary, lock);
            System.exit(lock && !(summary.eachTickRanOnce() && summary.violations().isEmpty()) ? 1 : 0);
        } finally {
            moto.close();
        }
    }

    /** Runs the fleet against the DynamoDB at {@code endpoint}. */
    public static Summary run(String endpoint, int instances, int ticks, Duration interval, boolean lock)
            throws InterruptedException {
        List<DynamoDbClient> clients = new ArrayList<>();
        List<DynamoDbLockProvider> providers = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            DynamoDbClient client = client(endpoint);
            clients.add(client);
            providers.add(DynamoDbLockProvider.builder().client(client).tableName("shedlock")
                    .lockedBy("instance-" + i).build());
        }
        DynamoDbLockTable.createIfAbsent(clients.get(0), "shedlock");
        String job = "nightly-report-" + System.nanoTime();
        LockHistory history = new LockHistory();
        Map<Integer, AtomicInteger> perTick = new ConcurrentHashMap<>();
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(instances);
        try {
            for (int tick = 0; tick < ticks; tick++) {
                long tickStart = System.nanoTime();
                CountDownLatch done = new CountDownLatch(instances);
                int currentTick = tick;
                for (int i = 0; i < instances; i++) {
                    DynamoDbLockProvider provider = providers.get(i);
                    String instance = "instance-" + i;
                    pool.execute(() -> {
                        try {
                            attempts.incrementAndGet();
                            if (!lock) {
                                long start = System.nanoTime();
                                work(currentTick, perTick);
                                history.record(instance, 0, start, System.nanoTime()); // no lock, no token
                                return;
                            }
                            // Every instance's scheduler fires now; lockAtLeastFor covers their clock differences.
                            Optional<FencedLock> held = provider.tryLock(new LockConfiguration(ClockProvider.now(),
                                    job, interval.multipliedBy(5), interval.dividedBy(2)));
                            if (held.isEmpty()) {
                                skipped.incrementAndGet();
                                return;
                            }
                            long start = System.nanoTime();
                            work(currentTick, perTick);
                            history.record(instance, held.get().fencingToken(), start, System.nanoTime());
                            held.get().unlock();
                        } finally {
                            done.countDown();
                        }
                    });
                }
                done.await();
                System.out.printf("\rtick %d/%d: %d executions so far ", tick + 1, ticks,
                        perTick.values().stream().mapToInt(AtomicInteger::get).sum());
                long sleep = interval.toNanos() - (System.nanoTime() - tickStart);
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
        }
        System.out.println();
        Map<Integer, Integer> executionsPerTick = new TreeMap<>();
        perTick.forEach((tick, n) -> executionsPerTick.put(tick, n.get()));
        int executions = executionsPerTick.values().stream().mapToInt(Integer::intValue).sum();
        return new Summary(instances, ticks, attempts.get(), executions, skipped.get(), executionsPerTick,
                history.violations());
    }

    private static void work(int tick, Map<Integer, AtomicInteger> perTick) {
        perTick.computeIfAbsent(tick, t -> new AtomicInteger()).incrementAndGet();
        try {
            Thread.sleep(100); // the job's work
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void print(Summary s, boolean lock) {
        System.out.println(lock ? "With cloudlock (DynamoDB provider):" : "Without a lock (--no-lock):");
        System.out.printf("  instances            %d%n", s.instances());
        System.out.printf("  ticks scheduled      %d%n", s.ticks());
        System.out.printf("  scheduler firings    %d%n", s.attempts());
        System.out.printf("  executions           %d%n", s.executions());
        System.out.printf("  skipped (held)       %d%n", s.skipped());
        System.out.printf("  ticks run once       %s%n", s.eachTickRanOnce() ? "all" : "NO: " + s.executionsPerTick());
        System.out.printf("  overlaps / fencing   %s%n", s.violations().isEmpty() ? "none, tokens in order"
                : s.violations().size() + " violations, e.g. " + s.violations().get(0));
    }

    private static DynamoDbClient client(String endpoint) {
        return DynamoDbClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("demo", "demo")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " needs a number");
        }
        int n;
        try {
            n = Integer.parseInt(args[i]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " needs a number, got '" + args[i] + "'");
        }
        if (n < 1) {
            throw new IllegalArgumentException("Option " + args[i - 1] + " must be at least 1, got " + n);
        }
        return n;
    }
}
