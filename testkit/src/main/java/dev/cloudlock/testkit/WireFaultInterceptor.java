package dev.cloudlock.testkit;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The gRPC side of {@link WireFaults}: a client interceptor that injects them on a real channel to a real server (the
 * Firestore emulator), where an HTTP proxy would need to speak HTTP/2. A request that is forwarded reaches the server
 * for real; a request that is refused never leaves the client. {@link WireFaults#shiftServerTime} does not apply:
 * gRPC stores carry their time in the messages.
 *
 * <ul>
 *   <li>{@link WireFault#RESPONSE_LOST}: forwarded; the answer is replaced by {@code UNAVAILABLE}, as when the
 *       connection drops.
 *   <li>{@link WireFault#ERROR_AFTER_FORWARD}: forwarded; the answer is replaced by {@code INTERNAL}.
 *   <li>{@link WireFault#THROTTLED}: refused with {@code RESOURCE_EXHAUSTED}; {@link WireFault#UNAVAILABLE} with
 *       {@code UNAVAILABLE}.
 *   <li>{@link WireFault#NO_ANSWER}: the call starts but its request is never sent, so the server never answers and the
 *       call's own deadline ends it.
 * </ul>
 */
public final class WireFaultInterceptor implements ClientInterceptor {

    /** Firestore's RPCs that may change documents. */
    public static final Set<String> FIRESTORE_WRITES =
            Set.of("Commit", "BatchWrite", "CreateDocument", "UpdateDocument", "DeleteDocument");

    private final WireFaults faults;
    private final Set<String> writes;

    /**
     * @param writes the bare names of the RPCs that may change the store (e.g. {@link #FIRESTORE_WRITES})
     */
    public WireFaultInterceptor(WireFaults faults, Set<String> writes) {
        this.faults = faults;
        this.writes = Set.copyOf(writes);
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        WireFault fault = faults.decide(writes.contains(method.getBareMethodName()));
        faults.awaitLatency();
        if (fault == null) {
            return next.newCall(method, options);
        }
        return switch (fault) {
            case RESPONSE_LOST ->
                answeredWith(
                        next.newCall(method, options), Status.UNAVAILABLE.withDescription("injected: connection lost"));
            case ERROR_AFTER_FORWARD ->
                answeredWith(next.newCall(method, options), Status.INTERNAL.withDescription("injected: server error"));
            case THROTTLED -> new Refused<>(Status.RESOURCE_EXHAUSTED.withDescription("injected: quota exceeded"));
            case UNAVAILABLE -> new Refused<>(Status.UNAVAILABLE.withDescription("injected: service unavailable"));
            case NO_ANSWER -> neverSent(next.newCall(method, options));
        };
    }

    /** The call goes to the server; whatever the server answers, the caller sees {@code status}. */
    private static <Q, R> ClientCall<Q, R> answeredWith(ClientCall<Q, R> call, Status status) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                super.start(
                        new Listener<>() {
                            @Override
                            public void onClose(Status real, Metadata trailers) {
                                listener.onClose(status, new Metadata());
                            }

                            @Override
                            public void onReady() {
                                listener.onReady();
                            }
                        },
                        headers);
            }
        };
    }

    /** The call starts, but its request never goes out: only the call's deadline (or a cancel) ends it. */
    private static <Q, R> ClientCall<Q, R> neverSent(ClientCall<Q, R> call) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
            @Override
            public void sendMessage(Q message) {
                // held back
            }

            @Override
            public void halfClose() {
                // held back
            }
        };
    }

    /** A call that never reaches the server: it ends with {@code status}, told on another thread. */
    private static final class Refused<Q, R> extends ClientCall<Q, R> {
        private final Status status;

        Refused(Status status) {
            this.status = status;
        }

        @Override
        public void start(Listener<R> listener, Metadata headers) {
            CompletableFuture.runAsync(() -> listener.onClose(status, new Metadata()));
        }

        @Override
        public void request(int numMessages) {}

        @Override
        public void cancel(@Nullable String message, @Nullable Throwable cause) {}

        @Override
        public void halfClose() {}

        @Override
        public void sendMessage(Q message) {}
    }
}
