package dev.cloudlock.emulators;

import java.io.IOException;
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
 */
public final class SilentEndpoint implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /** Starts listening on an ephemeral port of 127.0.0.1. */
    public SilentEndpoint() {
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not listen on 127.0.0.1", e);
        }
        acceptor = new Thread(this::acceptForever, "silent-endpoint-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                accepted.add(server.accept());
            } catch (IOException closed) {
                return;
            }
        }
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
