package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The examples' deployment packages, the same packages with a part taken out for a negative control, and a package of
 * another's made from one.
 */
final class Packages {

    private Packages() {}

    /**
     * A copy of {@code jar} at {@code target} without the SLF4J binding whose classes are under {@code bindingFolder}
     * (such as {@code org/slf4j/simple/}): its classes and SLF4J's service file, which names only the binding.
     */
    static Path withoutBinding(Path jar, String bindingFolder, Path target) throws IOException {
        try (ZipFile in = new ZipFile(jar.toFile());
                OutputStream file = Files.newOutputStream(target);
                ZipOutputStream out = new ZipOutputStream(file)) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            int dropped = 0;
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().startsWith(bindingFolder)
                        || entry.getName().equals("META-INF/services/org.slf4j.spi.SLF4JServiceProvider")) {
                    dropped++;
                    continue;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                try (InputStream content = in.getInputStream(entry)) {
                    content.transferTo(out);
                }
                out.closeEntry();
            }
            assertThat(dropped).as("the binding's entries in the package").isGreaterThan(1);
        }
        return target;
    }

    /**
     * Another's package made from {@code jar}: its dependencies (the guard and what it needs) without the classes under
     * {@code droppedFolder} (the example's own), with the classes compiled under {@code classes} instead.
     */
    static Path withOwnClasses(Path jar, String droppedFolder, Path classes, Path target) throws IOException {
        try (ZipFile in = new ZipFile(jar.toFile());
                OutputStream file = Files.newOutputStream(target);
                ZipOutputStream out = new ZipOutputStream(file);
                Stream<Path> compiled = Files.walk(classes)) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            int dropped = 0;
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().startsWith(droppedFolder)) {
                    dropped++;
                    continue;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                try (InputStream content = in.getInputStream(entry)) {
                    content.transferTo(out);
                }
                out.closeEntry();
            }
            assertThat(dropped).as("the example's own classes in the package").isPositive();
            for (Path path : compiled.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(
                        new ZipEntry(classes.relativize(path).toString().replace('\\', '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return target;
    }

    /** The contents of {@code zip}, written under {@code target}: a deployment archive as the platform unpacks it. */
    static Path unzip(Path zip, Path target) throws IOException {
        try (ZipFile in = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                Path to = target.resolve(entry.getName()).normalize();
                assertThat(to.startsWith(target))
                        .as("%s inside the archive's folder", to)
                        .isTrue();
                if (entry.isDirectory()) {
                    Files.createDirectories(to);
                    continue;
                }
                Files.createDirectories(to.getParent());
                try (InputStream content = in.getInputStream(entry)) {
                    Files.copy(content, to);
                }
            }
        }
        return target;
    }
}
