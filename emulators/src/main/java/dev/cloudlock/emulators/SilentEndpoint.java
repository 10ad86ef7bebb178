package dev.cloudlock.emulators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A never-answering endpoint on 127.0.0.1: it accepts every connection and reads nothing, writes nothing, closes
 * nothing, so a client waits for an answer (or a TLS handshake) that never comes. The fault that a store deadline must
 * bound. Closing it closes the listening socket and every accepted connection.
 *
 * <p>{@link #forwardingTo(int)} makes one that first forwards every connection to a real endpoint (for a client that
 * must talk to its server while it is built, as Cosmos DB's does) and goes silent on {@link #silence()}: from then on
 * nothing is forwarded in either direction on open connections, and new connections are accepted and left silent.
 */
public final class SilentEndpoint implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private final int targetPort;
    private volatile boolean silent;
    private volatile boolean closed;

    /** Starts listening on an ephemeral port of 127.0.0.1, silent from the start. */
    public SilentEndpoint() {
        this(-1);
    }

    /**
     * One silent endpoint for this test JVM, started on first use and left open until the JVM ends, as the emulator
     * launchers share their processes: each client that connects waits on a connection of its own.
     */
    public static SilentEndpoint shared() {
        return Shared.ENDPOINT;
    }

    private static final class Shared {
        static final SilentEndpoint ENDPOINT = new SilentEndpoint();
    }

    /** Starts forwarding to {@code 127.0.0.1:targetPort} until {@link #silence()}. */
    public static SilentEndpoint forwardingTo(int targetPort) {
        if (targetPort <= 0) {
            throw new IllegalArgumentException("targetPort must be positive, was " + targetPort);
        }
        return new SilentEndpoint(targetPort);
    }

    private SilentEndpoint(int targetPort) {
        this.targetPort = targetPort;
        this.silent = targetPort <= 0;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not listen on 127.0.0.1", e);
        }
        acceptor = new Thread(this::acceptForever, "silent-endpoint-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** From now on, nothing is forwarded: open connections and new ones get no answer. */
    public void silence() {
        silent = true;
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                accepted.add(client);
                if (closed) {
                    // accepted after close(): the kernel keeps a listening socket alive until a blocked accept
                    // returns, so a connection can still arrive; it must not reach the target
                    client.close();
                    return;
                }
                if (!silent) {
                    forward(client);
                }
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void forward(Socket client) {
        try {
            Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            accepted.add(target);
            pump(client, target);
            pump(target, client);
        } catch (IOException e) {
            // the target is gone: leave the client connection silent
        }
    }

    /** Copies bytes from {@code from} to {@code to} until closed; drops them once silenced. */
    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (!silent && !closed) {
                                out.write(buffer, 0, n);
                                out.flush();
                            }
                        }
                    } catch (IOException closed) {
                        // one side closed
                    }
                },
                "silent-endpoint-pump-" + port());
        pump.setDaemon(true);
        pump.start();
    }

    /** The port it listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:port}. */
    public String hostAndPort() {
        return "127.0.0.1:" + port();
    }

    /** {@code scheme://127.0.0.1:port}, e.g. {@code http} or {@code https}. */
    public String url(String scheme) {
        return scheme + "://" + hostAndPort();
    }

    /** How many connections it has accepted so far. */
    public int connectionsAccepted() {
        return accepted.size();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : accepted) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
