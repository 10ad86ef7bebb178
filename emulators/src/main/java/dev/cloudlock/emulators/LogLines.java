package dev.cloudlock.emulators;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The lines this JVM's loggers print to {@code System.err} while a body runs (slf4j-simple, the tests' logger, looks
 * {@code System.err} up on every line), also passed on to the real {@code System.err}: for a test that checks a log
 * line is written, or is not. Not for concurrent tests: {@code System.err} is one per JVM.
 */
public final class LogLines {

    /** A body that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private LogLines() {}

    /** Runs {@code body} and returns the lines printed to {@code System.err} meanwhile. */
    public static List<String> during(Body body) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(
                new java.io.OutputStream() {
                    @Override
                    public void write(int b) {
                        captured.write(b);
                        original.write(b);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) {
                        captured.write(bytes, offset, length);
                        original.write(bytes, offset, length);
                    }
                },
                true,
                StandardCharsets.UTF_8);
        System.setErr(both);
        try {
            body.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
