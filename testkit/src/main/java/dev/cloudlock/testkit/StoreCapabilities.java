package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a store's test offers {@link LockProviderContract} beyond its two providers, as one immutable value: how the
 * store judges leases, the providers and writers some cases need (a missing table, a never-answering endpoint, a
 * fault-injecting wire, a stray record) and the sizes of the contended run. Build it with {@link #builder()}; what is
 * not given is absent, and the contract reports the cases that need it as skipped, with the reason.
 */
public final class StoreCapabilities {

    /** Threads in the contended run unless {@link Builder#contention} says otherwise. */
    public static final int DEFAULT_CONTENTION_THREADS = 8;

    /** Holdings per thread in the contended run unless {@link Builder#contention} says otherwise. */
    public static final int DEFAULT_CONTENTION_ACQUISITIONS_PER_THREAD = 40;

    /** The never-answering case's deadline unless {@link Builder#silentDeadline} says otherwise. */
    public static final Duration DEFAULT_SILENT_DEADLINE = Duration.ofSeconds(2);

    /** Providers whose client talks to an endpoint that accepts connections and never answers. */
    @FunctionalInterface
    public interface SilentProviders {
        /**
         * A new provider on the never-answering endpoint with {@code callTimeout} as its deadline; for {@code null},
         * one whose deadline lies far beyond the test, so that only the SDK's own settings apply.
         */
        CloudLockProvider provider(@Nullable Duration callTimeout);
    }

    /**
     * A provider on the store's server through a connection the test can cut, and the cut: after {@link #stop()},
     * open connections are closed and new ones refused, as when the server stops mid-run.
     */
    public record StoppableProvider(CloudLockProvider provider, Runnable stop) {
        public StoppableProvider {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(stop, "stop");
        }
    }

    /** Providers whose every request crosses the wire of {@link Builder#wire}. */
    @FunctionalInterface
    public interface ProvidersOnWire {
        /** A new provider (a new store and clock estimate) writing {@code lockedBy}, with that call deadline. */
        CloudLockProvider provider(String lockedBy, Duration callTimeout);
    }

    private final @Nullable Boolean usesClientClock;
    private final @Nullable Supplier<CloudLockProvider> misconfiguredProvider;
    private final @Nullable SilentProviders silentProviders;
    private final @Nullable Supplier<StoppableProvider> stoppableProviders;
    private final @Nullable WireFaults wireFaults;
    private final @Nullable ProvidersOnWire providersOnWire;
    private final boolean wireCarriesStoreTime;
    private final @Nullable Consumer<String> strayRecordWriter;
    private final @Nullable Function<String, Optional<Instant>> expiryReader;
    private final Duration silentDeadline;
    private final int contentionThreads;
    private final int contentionAcquisitionsPerThread;

    private StoreCapabilities(Builder builder) {
        usesClientClock = builder.usesClientClock;
        misconfiguredProvider = builder.misconfiguredProvider;
        silentProviders = builder.silentProviders;
        stoppableProviders = builder.stoppableProviders;
        wireFaults = builder.wireFaults;
        providersOnWire = builder.providersOnWire;
        wireCarriesStoreTime = builder.wireCarriesStoreTime;
        strayRecordWriter = builder.strayRecordWriter;
        expiryReader = builder.expiryReader;
        silentDeadline = builder.silentDeadline;
        contentionThreads = builder.contentionThreads;
        contentionAcquisitionsPerThread = builder.contentionAcquisitionsPerThread;
    }

    /** A builder with nothing offered and the default sizes. */
    public static Builder builder() {
        return new Builder();
    }

    /** Nothing beyond the two providers, at the default sizes: the in-memory store's case. */
    public static StoreCapabilities none() {
        return builder().build();
    }

    /**
     * Whether the store compares leases with the client's clock (ShedLock's {@code ClockProvider}); empty when the
     * store's test did not say, and the contract then takes a store without a
     * {@link dev.cloudlock.spi.ClockSkewMonitor} to use the client's clock.
     */
    public Optional<Boolean> usesClientClock() {
        return Optional.ofNullable(usesClientClock);
    }

    /** Providers on the backend under test whose table, bucket or container does not exist. */
    public Optional<Supplier<CloudLockProvider>> misconfiguredProvider() {
        return Optional.ofNullable(misconfiguredProvider);
    }

    /** Providers on an endpoint that never answers. */
    public Optional<SilentProviders> silentProvider() {
        return Optional.ofNullable(silentProviders);
    }

    /** Providers on the store's server through a connection that can be cut. */
    public Optional<Supplier<StoppableProvider>> stoppableProvider() {
        return Optional.ofNullable(stoppableProviders);
    }

    /** The faults on the wire of {@link #providerOnWire()}; present exactly when they are. */
    public Optional<WireFaults> wireFaults() {
        return Optional.ofNullable(wireFaults);
    }

    /** Providers whose requests cross the wire of {@link #wireFaults()}; present exactly when it is. */
    public Optional<ProvidersOnWire> providerOnWire() {
        return Optional.ofNullable(providersOnWire);
    }

    /**
     * True when the store's answers on the wire carry its time in a form {@link WireFaults#shiftServerTime} shifts
     * (HTTP {@code Date} headers); false when that time travels inside gRPC messages.
     */
    public boolean wireCarriesStoreTime() {
        return wireCarriesStoreTime;
    }

    /** Writes, with the store's own SDK, a record at the key of the given lock name that is no lock record. */
    public Optional<Consumer<String>> strayRecordWriter() {
        return Optional.ofNullable(strayRecordWriter);
    }

    /**
     * Reads, with the store's own SDK, the expiry the store keeps on the record of the given lock name (the instant its
     * own mechanism may delete it from: a TTL attribute, a per-item {@code ttl} after the item's last write, a
     * timestamp field, an object's lifecycle prefix and metadata); empty when the record carries none.
     */
    public Optional<Function<String, Optional<Instant>>> expiryReader() {
        return Optional.ofNullable(expiryReader);
    }

    /** The deadline the never-answering case sets; the call must fail within 3 times it. */
    public Duration silentDeadline() {
        return silentDeadline;
    }

    /** Threads in the contended run (and, up to 4, waiters taking turns). */
    public int contentionThreads() {
        return contentionThreads;
    }

    /** Holdings per thread in the contended run. */
    public int contentionAcquisitionsPerThread() {
        return contentionAcquisitionsPerThread;
    }

    /** Collects the capabilities; each setter replaces what an earlier call set. Not thread-safe. */
    public static final class Builder {

        private @Nullable Boolean usesClientClock;
        private @Nullable Supplier<CloudLockProvider> misconfiguredProvider;
        private @Nullable SilentProviders silentProviders;
        private @Nullable Supplier<StoppableProvider> stoppableProviders;
        private @Nullable WireFaults wireFaults;
        private @Nullable ProvidersOnWire providersOnWire;
        private boolean wireCarriesStoreTime = true;
        private @Nullable Consumer<String> strayRecordWriter;
        private @Nullable Function<String, Optional<Instant>> expiryReader;
        private Duration silentDeadline = DEFAULT_SILENT_DEADLINE;
        private int contentionThreads = DEFAULT_CONTENTION_THREADS;
        private int contentionAcquisitionsPerThread = DEFAULT_CONTENTION_ACQUISITIONS_PER_THREAD;

        private Builder() {}

        /**
         * Whether the store compares leases with the client's clock: true runs the clock-driven cases, false (a store
         * that reads the server's time itself, like Firestore) the cases of a client whose clock is off. Unset, a
         * store without a {@link dev.cloudlock.spi.ClockSkewMonitor} is taken to use the client's clock.
         */
        public Builder usesClientClock(boolean usesClientClock) {
            this.usesClientClock = usesClientClock;
            return this;
        }

        /** Providers whose table, bucket or container does not exist; not set for a store with no such setup. */
        public Builder misconfiguredProvider(Supplier<CloudLockProvider> providers) {
            this.misconfiguredProvider = Objects.requireNonNull(providers, "providers");
            return this;
        }

        /**
         * Providers on an endpoint that accepts connections and never answers (a TLS handshake included). The store's
         * test owns the endpoint and closes it.
         */
        public Builder silentProvider(SilentProviders providers) {
            this.silentProviders = Objects.requireNonNull(providers, "providers");
            return this;
        }

        /**
         * New providers, each with a deadline of about 2 s, on the store's server through a connection of the
         * test's that {@link StoppableProvider#stop()} cuts (a forwarding endpoint it closes), for the case of a
         * server stopped mid-run.
         */
        public Builder stoppableProvider(Supplier<StoppableProvider> providers) {
            this.stoppableProviders = Objects.requireNonNull(providers, "providers");
            return this;
        }

        /**
         * The faults on the wire between the store's SDK and its server ({@link WireFaultProxy#faults()} in front of
         * an HTTP store's emulator, the faults of a {@link WireFaultInterceptor} on a gRPC store's channel) and the
         * providers whose requests cross it. One wire per test class: the contract heals it after every test.
         */
        public Builder wire(WireFaults faults, ProvidersOnWire providers) {
            this.wireFaults = Objects.requireNonNull(faults, "faults");
            this.providersOnWire = Objects.requireNonNull(providers, "providers");
            return this;
        }

        /** Whether the store's time crosses the wire in HTTP {@code Date} headers (true unless set). */
        public Builder wireCarriesStoreTime(boolean wireCarriesStoreTime) {
            this.wireCarriesStoreTime = wireCarriesStoreTime;
            return this;
        }

        /**
         * Writes, with the store's own SDK, a record at the key of the lock it is given that is no lock record
         * (another tool's object under the lock prefix, a half-written one, a field of the wrong type).
         */
        public Builder strayRecordWriter(Consumer<String> writer) {
            this.strayRecordWriter = Objects.requireNonNull(writer, "writer");
            return this;
        }

        /**
         * Reads, with the store's own SDK, the expiry kept on the record of a lock name, empty when it carries none:
         * for the cases that check an occurrence record expires and a job's record never does.
         */
        public Builder expiryReader(Function<String, Optional<Instant>> reader) {
            this.expiryReader = Objects.requireNonNull(reader, "reader");
            return this;
        }

        /** The deadline the never-answering case sets; positive. */
        public Builder silentDeadline(Duration deadline) {
            Objects.requireNonNull(deadline, "deadline");
            if (deadline.isNegative() || deadline.isZero()) {
                throw new IllegalArgumentException("silentDeadline must be positive: " + deadline);
            }
            this.silentDeadline = deadline;
            return this;
        }

        /** Threads and holdings per thread in the contended run; each at least 1. */
        public Builder contention(int threads, int acquisitionsPerThread) {
            if (threads < 1 || acquisitionsPerThread < 1) {
                throw new IllegalArgumentException("contention needs at least 1 thread and 1 holding per thread: "
                        + threads + " x " + acquisitionsPerThread);
            }
            this.contentionThreads = threads;
            this.contentionAcquisitionsPerThread = acquisitionsPerThread;
            return this;
        }

        /** The capabilities collected so far. */
        public StoreCapabilities build() {
            return new StoreCapabilities(this);
        }
    }
}
