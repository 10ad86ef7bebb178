package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's staging directory holds every published module with pom, jar, sources and Javadoc, and nothing
 * unpublished. The published modules are those the BOM lists (one list: the parent imports the BOM too).
 */
class ReleaseStagingTest {

    private static final Path BOM = Path.of(System.getProperty("cloudlock.bom.pom", "../bom/pom.xml"));
    private static final String VERSION = System.getProperty("cloudlock.version", "0.1.0-SNAPSHOT");

    @Test
    @EnabledIfSystemProperty(named = "cloudlock.staging.dir", matches = ".+")
    void theReleaseStagedExactlyThePublishedModules() {
        Path staging = Path.of(System.getProperty("cloudlock.staging.dir"));
        List<String> problems =
                StagingCheck.problems(staging, StagingCheck.bomEntries(BOM).keySet(), StagingCheck.TOOLS, VERSION);

        assertThat(problems)
                .as("what is wrong with %s (run ./mvnw -Prelease clean deploy -DskipTests)", staging)
                .isEmpty();
    }

    @Test
    void theBomListsThePublishedModulesAtTheProjectVersion() {
        Map<String, String> bom = StagingCheck.bomEntries(BOM);

        assertThat(bom.values()).containsOnly("${project.version}");
        assertThat(bom.keySet())
                .contains(
                        "cloudlock-core",
                        "cloudlock-testkit",
                        "cloudlock-dynamodb",
                        "cloudlock-function-core",
                        "cloudlock-fencing-jdbc")
                .doesNotContain(
                        "cloudlock-emulators",
                        "cloudlock-examples",
                        "cloudlock-benchmarks",
                        "cloudlock-infra-terraform",
                        "cloudlock-release-check",
                        "cloudlock-parent",
                        "cloudlock-bom");
    }

    @Test
    void aCompleteStagingPasses(@TempDir Path staging) throws IOException {
        stage(staging, "cloudlock-parent", false);
        stage(staging, "cloudlock-bom", false);
        stage(staging, "cloudlock-core", true);
        stage(staging, "cloudlock-dynamodb", true);
        stage(staging, "cloudlock-cli", true);
        Files.writeString(dir(staging, "cloudlock-cli").resolve("cloudlock-cli-" + VERSION + "-dist.zip"), "zip");

        assertThat(StagingCheck.problems(
                        staging, Set.of("cloudlock-core", "cloudlock-dynamodb"), Set.of("cloudlock-cli"), VERSION))
                .isEmpty();
    }

    /** The negative control: the check finds what is missing and what should not be there. */
    @Test
    void everyGapAndEveryUnpublishedArtifactIsReported(@TempDir Path staging) throws IOException {
        stage(staging, "cloudlock-parent", false);
        // no BOM
        stage(staging, "cloudlock-core", true);
        Files.delete(dir(staging, "cloudlock-core").resolve("cloudlock-core-" + VERSION + "-javadoc.jar"));
        stage(staging, "cloudlock-dynamodb", true);
        jar(dir(staging, "cloudlock-dynamodb").resolve("cloudlock-dynamodb-" + VERSION + ".jar"), null, "A.class");
        stage(staging, "cloudlock-s3", true);
        jar(dir(staging, "cloudlock-s3").resolve("cloudlock-s3-" + VERSION + ".jar"), "dev.cloudlock.core", "A.class");
        stage(staging, "cloudlock-emulators", true);
        stage(staging, "cloudlock-cli", true); // without its distribution
        Files.createDirectories(staging.resolve("org/example/other"));

        List<String> problems = StagingCheck.problems(
                staging,
                Set.of("cloudlock-core", "cloudlock-dynamodb", "cloudlock-s3", "cloudlock-cosmos"),
                Set.of("cloudlock-cli"),
                VERSION);

        assertThat(problems)
                .containsExactlyInAnyOrder(
                        "cloudlock-bom: not staged (no " + dir(staging, "cloudlock-bom") + ")",
                        "cloudlock-core: no javadoc jar",
                        "cloudlock-cli: no distribution (cloudlock-cli-" + VERSION + "-dist.zip)",
                        "cloudlock-cosmos: not staged (no " + dir(staging, "cloudlock-cosmos") + ")",
                        "cloudlock-dynamodb: no Automatic-Module-Name dev.cloudlock.* in the jar's manifest (null)",
                        "cloudlock-s3: module name dev.cloudlock.core is also cloudlock-core's",
                        "not published, but staged: org",
                        "not published, but staged: cloudlock-emulators");
    }

    private static Path dir(Path staging, String artifactId) {
        return staging.resolve("dev/cloudlock").resolve(artifactId).resolve(VERSION);
    }

    /** What maven-deploy-plugin leaves for one artifact: pom (and jars), checksums and metadata beside them. */
    private static void stage(Path staging, String artifactId, boolean jar) throws IOException {
        Path dir = Files.createDirectories(dir(staging, artifactId));
        String base = artifactId + "-" + VERSION;
        Files.writeString(dir.resolve(base + ".pom"), "<project/>");
        Files.writeString(dir.resolve(base + ".pom.sha1"), "0");
        Files.writeString(dir.resolve("maven-metadata.xml"), "<metadata/>");
        if (jar) {
            String name = "dev.cloudlock." + artifactId.substring("cloudlock-".length());
            jar(dir.resolve(base + ".jar"), name, "dev/cloudlock/A.class");
            jar(dir.resolve(base + "-sources.jar"), null, "dev/cloudlock/A.java");
            jar(dir.resolve(base + "-javadoc.jar"), null, "index.html");
        }
    }

    private static void jar(Path file, String moduleName, String entry) throws IOException {
        var manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (moduleName != null) {
            manifest.getMainAttributes().putValue("Automatic-Module-Name", moduleName);
        }
        try (OutputStream out = Files.newOutputStream(file);
                var jar = new JarOutputStream(out, manifest)) {
            jar.putNextEntry(new JarEntry(entry));
            jar.closeEntry();
        }
    }
}
