package dev.cloudlock.releasecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a release must stage, and what is wrong with a staging directory (a Maven file repository): each problem as
 * one line, none when the staging is complete and holds nothing else.
 */
final class StagingCheck {

    static final String GROUP_ID = "dev.cloudlock";
    /** The one other group the BOM manages: ShedLock, at the versions cloudlock is built and tested against. */
    static final String ALIGNED_GROUP_ID = "net.javacrumbs.shedlock";
    /** Published as a pom only: the parent (the published modules inherit it) and the BOM itself. */
    static final Set<String> POM_ONLY = Set.of("cloudlock-parent", "cloudlock-bom");

    /**
     * The tools the release stages besides the BOM's libraries: each a jar module with, in addition, its distribution
     * ({@code -dist.zip}: the launcher and the runnable jar), which a user downloads and runs.
     */
    static final Set<String> TOOLS = Set.of("cloudlock-cli");

    private static final Pattern MODULE_NAME = Pattern.compile("dev\\.cloudlock(\\.[a-z][a-z0-9]*)*");

    private StagingCheck() {}

    /**
     * The cloudlock jar modules the BOM manages: the published ones, all of them at {@code ${project.version}} (the
     * ShedLock artifacts it aligns are not ours and not listed).
     */
    static Map<String, String> bomEntries(Path bomPom) {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            var doc = factory.newDocumentBuilder().parse(bomPom.toFile());
            var managed = (Element) doc.getDocumentElement()
                    .getElementsByTagName("dependencyManagement")
                    .item(0);
            NodeList deps = managed.getElementsByTagName("dependency");
            Map<String, String> versions = new HashMap<>();
            for (int i = 0; i < deps.getLength(); i++) {
                var dep = (Element) deps.item(i);
                String group = text(dep, "groupId");
                if (ALIGNED_GROUP_ID.equals(group)) {
                    continue; // ShedLock, aligned to the version cloudlock is built with; not ours to publish
                }
                if (!GROUP_ID.equals(group)) {
                    throw new IllegalStateException("the BOM manages " + group + ":" + text(dep, "artifactId"));
                }
                versions.put(text(dep, "artifactId"), text(dep, "version"));
            }
            return versions;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + bomPom, e);
        }
    }

    private static String text(Element parent, String tag) {
        var nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }

    /**
     * The problems of {@code staging}: a published artifact without its pom (or, for a jar module, its jar, sources
     * jar, Javadoc jar or module name; for a tool, its distribution), and anything staged that is not published.
     */
    static List<String> problems(Path staging, Set<String> jarModules, Set<String> tools, String version) {
        List<String> problems = new ArrayList<>();
        Path group = staging.resolve(GROUP_ID.replace('.', '/'));
        if (!Files.isDirectory(group)) {
            problems.add("nothing staged under " + group);
        }
        Set<String> expected = new TreeSet<>(jarModules);
        expected.addAll(tools);
        expected.addAll(POM_ONLY);
        Map<String, String> moduleNames = new HashMap<>();
        for (String artifactId : expected) {
            Path dir = group.resolve(artifactId).resolve(version);
            if (!Files.isDirectory(dir)) {
                problems.add(artifactId + ": not staged (no " + dir + ")");
                continue;
            }
            Map<String, Path> files = artifactFiles(dir, artifactId);
            require(problems, artifactId, files, "pom");
            if (POM_ONLY.contains(artifactId)) {
                if (files.containsKey("jar")) {
                    problems.add(artifactId + ": a pom-only artifact has a jar");
                }
                continue;
            }
            require(problems, artifactId, files, "jar");
            if (tools.contains(artifactId) && !files.containsKey("dist")) {
                problems.add(artifactId + ": no distribution (" + artifactId + "-" + version + "-dist.zip)");
            }
            require(problems, artifactId, files, "sources");
            require(problems, artifactId, files, "javadoc");
            if (files.containsKey("jar")) {
                String name = moduleName(files.get("jar"));
                if (name == null || !MODULE_NAME.matcher(name).matches()) {
                    problems.add(artifactId + ": no Automatic-Module-Name dev.cloudlock.* in the jar's manifest ("
                            + name + ")");
                } else if (moduleNames.containsKey(name)) {
                    problems.add(artifactId + ": module name " + name + " is also " + moduleNames.get(name) + "'s");
                } else {
                    moduleNames.put(name, artifactId);
                }
            }
            if (files.containsKey("sources") && !hasEntry(files.get("sources"), ".java")) {
                problems.add(artifactId + ": the sources jar has no .java file");
            }
            if (files.containsKey("javadoc") && !hasEntry(files.get("javadoc"), "index.html")) {
                problems.add(artifactId + ": the Javadoc jar has no index.html");
            }
        }
        for (Path staged : list(staging)) {
            if (!staged.equals(staging.resolve("dev"))) {
                problems.add("not published, but staged: " + staging.relativize(staged));
            }
        }
        if (Files.isDirectory(group)) {
            for (Path staged : list(group)) {
                String name = staged.getFileName().toString();
                if (!expected.contains(name)) {
                    problems.add("not published, but staged: " + name);
                }
            }
        }
        return problems;
    }

    private static void require(List<String> problems, String artifactId, Map<String, Path> files, String kind) {
        if (!files.containsKey(kind)) {
            problems.add(artifactId + ": no " + kind + (kind.equals("pom") || kind.equals("jar") ? "" : " jar"));
        }
    }

    /** The staged files of one version by kind (pom, jar, sources, javadoc, dist); checksums and metadata left out. */
    private static Map<String, Path> artifactFiles(Path dir, String artifactId) {
        Map<String, Path> files = new HashMap<>();
        for (Path file : list(dir)) {
            String name = file.getFileName().toString();
            if (!name.startsWith(artifactId + "-")) {
                continue;
            }
            if (name.endsWith("-sources.jar")) {
                files.put("sources", file);
            } else if (name.endsWith("-javadoc.jar")) {
                files.put("javadoc", file);
            } else if (name.endsWith(".jar")) {
                files.put("jar", file);
            } else if (name.endsWith("-dist.zip")) {
                files.put("dist", file);
            } else if (name.endsWith(".pom")) {
                files.put("pom", file);
            }
        }
        return files;
    }

    private static String moduleName(Path jar) {
        try (var file = new JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            return manifest == null ? null : manifest.getMainAttributes().getValue("Automatic-Module-Name");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean hasEntry(Path jar, String suffix) {
        try (var file = new JarFile(jar.toFile())) {
            return file.stream().anyMatch(e -> e.getName().endsWith(suffix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
