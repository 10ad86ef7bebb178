package dev.cloudlock.emulators;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forwards every connection accepted on one endpoint to another, byte for byte, where an endpoint is
 * {@code tcp:127.0.0.1:PORT} or {@code unix:/path/to.sock}. A Unix-domain socket is a file, so it is reachable from
 * every network namespace: a relay on each side of a namespace boundary links loopback ports that cannot see each
 * other. TCP is only ever bound to 127.0.0.1.
 *
 * <p>Run as a process: {@code java ... SocketRelay LISTEN=TARGET...}; or in process with {@link #start}.
 */
public final class SocketRelay implements Closeable {

    private final ServerSocketChannel server;
    private final SocketAddress target;
    private final Thread acceptor;

    private SocketRelay(String listen, String target) throws IOException {
        SocketAddress listenAddress = address(listen);
        this.target = address(target);
        if (listenAddress instanceof UnixDomainSocketAddress unix) {
            Files.deleteIfExists(unix.getPath());
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        } else {
            server = ServerSocketChannel.open(StandardProtocolFamily.INET);
        }
        server.bind(listenAddress);
        acceptor = new Thread(this::acceptLoop, "relay " + listen + " -> " + target);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Relays {@code listen} to {@code target} until closed. */
    public static SocketRelay start(String listen, String target) {
        try {
            return new SocketRelay(listen, target);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot relay " + listen + " to " + target, e);
        }
    }

    /** The TCP port this relay listens on (for a {@code tcp:127.0.0.1:0} listener). */
    public int port() {
        try {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SocketAddress address(String endpoint) {
        if (endpoint.startsWith("unix:")) {
            return UnixDomainSocketAddress.of(Path.of(endpoint.substring("unix:".length())));
        }
        if (endpoint.startsWith("tcp:127.0.0.1:")) {
            return new InetSocketAddress("127.0.0.1", Integer.parseInt(endpoint.substring("tcp:127.0.0.1:".length())));
        }
        throw new IllegalArgumentException("Endpoint must be unix:PATH or tcp:127.0.0.1:PORT, was " + endpoint);
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            SocketChannel inbound;
            try {
                inbound = server.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                SocketChannel outbound = SocketChannel.open(target);
                AtomicInteger open = new AtomicInteger(2);
                Runnable halfDone = () -> {
                    if (open.decrementAndGet() == 0) {
                        closeQuietly(inbound);
                        closeQuietly(outbound);
                    }
                };
                pump(inbound, outbound, halfDone);
                pump(outbound, inbound, halfDone);
            } catch (IOException e) {
                closeQuietly(inbound);
            }
        }
    }

    private static void pump(SocketChannel from, SocketChannel to, Runnable done) {
        Thread thread = new Thread(
                () -> {
                    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                    try {
                        while (from.read(buffer) >= 0) {
                            buffer.flip();
                            while (buffer.hasRemaining()) {
                                to.write(buffer);
                            }
                            buffer.clear();
                        }
                        to.shutdownOutput();
                    } catch (IOException e) {
                        closeQuietly(from);
                        closeQuietly(to);
                    } finally {
                        done.run();
                    }
                },
                "relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // already closed by the other direction
        }
    }

    @Override
    public void close() {
        closeQuietly(server);
    }

    /** {@code LISTEN=TARGET ...}: relays each pair until the process is killed. */
    public static void main(String[] args) throws InterruptedException {
        List<SocketRelay> relays = new ArrayList<>();
        for (String pair : args) {
            String[] ends = pair.split("=", 2);
            relays.add(start(ends[0], ends[1]));
        }
        System.out.println("relaying " + String.join(" ", args));
        Thread.currentThread().join();
    }
}
