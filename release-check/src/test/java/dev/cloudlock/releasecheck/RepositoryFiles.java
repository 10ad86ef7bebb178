package dev.cloudlock.releasecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files of this repository's working tree that the text checks read: everything under the root (the folder with
 * {@code mvnw}) except build output ({@code target}), installed packages ({@code node_modules}) and hidden folders
 * ({@code .git}, {@code .mvn}, {@code .idea}, ...), sorted by path.
 */
final class RepositoryFiles {

    private static final Set<String> SKIPPED = Set.of("target", "node_modules");

    private RepositoryFiles() {}

    /** The repository root: the nearest folder with {@code mvnw} at or above the working directory. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("cannot find the repository root (a folder with mvnw) above "
                    + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** Every regular file under {@code root}, build output, installed packages and hidden folders left out. */
    static List<Path> all(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> !skipped(root.relativize(file)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path relative to the root, with {@code /} between names on every system. */
    static String name(Path root, Path file) {
        return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
    }

    private static boolean skipped(Path relative) {
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            String folder = relative.getName(i).toString();
            if (SKIPPED.contains(folder) || folder.startsWith(".")) {
                return true;
            }
        }
        return false;
    }
}
