package dev.cloudlock.emulators;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * An emulator whose free port another process took before it could bind it (as another JVM's emulator may, under
 * {@code -T 2}) is started again on another port, instead of talking to that other process.
 */
class EmulatorProcessTest {

    /** A plain HTTP server process on the port it is given: Python's, which every test machine here has. */
    private static final IntFunction<List<String>> HTTP_SERVER =
            port -> List.of("python3", "-m", "http.server", Integer.toString(port), "--bind", "127.0.0.1");

    @Test
    void anEmulatorWhosePortAnotherProcessTookStartsOnTheNextPort() throws Exception {
        HttpServer squatter = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        squatter.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        squatter.start();
        int taken = squatter.getAddress().getPort();
        int free = EmulatorProcess.freePort();
        AtomicInteger handedOut = new AtomicInteger();
        try (EmulatorProcess emulator = EmulatorProcess.start(
                "http-server",
                HTTP_SERVER,
                "/",
                Duration.ofSeconds(30),
                () -> handedOut.getAndIncrement() == 0 ? taken : free)) {
            assertThat(emulator.port())
                    .as("the emulator's port: the taken one is given up (without the check it was kept)")
                    .isEqualTo(free);
            assertThat(handedOut).hasValue(2);
            assertThat(emulator.isAlive()).isTrue();
        } finally {
            squatter.stop(0);
        }
    }

    /**
     * An emulator that exits because a port it was given is taken (the Spanner gateway does when its gRPC server's
     * port is) is started again on other ports, instead of failing the test class.
     */
    @Test
    void anEmulatorThatExitsBecauseItsPortWasTakenStartsOnTheNextPort() throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = squatter.getLocalPort();
            int free = EmulatorProcess.freePort();
            AtomicInteger handedOut = new AtomicInteger();
            try (EmulatorProcess emulator = EmulatorProcess.start(
                    "http-server",
                    HTTP_SERVER,
                    "/",
                    Duration.ofSeconds(30),
                    () -> handedOut.getAndIncrement() == 0 ? taken : free)) {
                assertThat(emulator.port()).isEqualTo(free);
                assertThat(handedOut).hasValue(2);
            }
        }
    }

    @Test
    void anEmulatorOnAPortNobodyElseHoldsKeepsIt() {
        int free = EmulatorProcess.freePort();
        AtomicInteger handedOut = new AtomicInteger();
        try (EmulatorProcess emulator =
                EmulatorProcess.start("http-server", HTTP_SERVER, "/", Duration.ofSeconds(30), () -> {
                    handedOut.incrementAndGet();
                    return free;
                })) {
            assertThat(emulator.port()).isEqualTo(free);
            assertThat(handedOut).hasValue(1);
        }
    }
}
