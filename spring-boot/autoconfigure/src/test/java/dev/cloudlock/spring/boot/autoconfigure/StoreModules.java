package dev.cloudlock.spring.boot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The stores this repository builds, one module each under {@code providers/}, named as the store is: the list the
 * starter's tests expect on its class path, read from the tree rather than from the registry under test, so that a
 * store module the starter does not depend on, or one that does not register its store, is caught.
 */
final class StoreModules {

    private StoreModules() {}

    /** The store modules' names, sorted. */
    static List<String> names() {
        Path providers = Path.of("../../providers").toAbsolutePath().normalize();
        try (Stream<Path> modules = Files.list(providers)) {
            List<String> names = modules.filter(module -> Files.isRegularFile(module.resolve("pom.xml")))
                    .map(module -> module.getFileName().toString())
                    .sorted()
                    .toList();
            if (names.isEmpty()) {
                throw new IllegalStateException("no store module under " + providers);
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
