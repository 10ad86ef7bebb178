package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter offers the stores on the class path and names no store itself: in a JVM whose class path lacks
 * {@code cloudlock-cosmos} (and the Cosmos DB SDK), an application on the in-memory store starts, and
 * {@code cloudlock.store=cosmos} fails startup naming the stores there are and the module to add. The control: with
 * the module present, the same setting finds the store (and fails on its missing container instead).
 */
class StoresOnTheClassPathTest {

    /** Starts {@link LockingApp} with the arguments as properties and prints its store's name or the failure. */
    public static void main(String[] args) {
        Map<String, Object> properties = new java.util.LinkedHashMap<>();
        for (String arg : args) {
            String[] pair = arg.split("=", 2);
            properties.put(pair[0], pair[1]);
        }
        try (ConfigurableApplicationContext context = StarterApps.start(LockingApp.class, properties)) {
            System.out.println(
                    "started on " + context.getBean(CloudLockProvider.class).store());
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof CloudLockStartupException)) {
                cause = cause.getCause();
            }
            System.out.println("failed: " + cause.getMessage());
        }
        System.exit(0);
    }

    private static String run(boolean withCosmos, String... properties) throws Exception {
        return run(
                entry -> withCosmos
                        || !(entry.contains("providers" + File.separator + "cosmos")
                                || entry.contains("cloudlock-cosmos")
                                || entry.contains("azure-cosmos")),
                properties);
    }

    /** A JVM with only the store modules {@code kept} (of the seven) on its class path. */
    private static String runWithStoreModules(List<String> kept, String... properties) throws Exception {
        List<String> absent = new ArrayList<>(
                List.of("dynamodb", "s3", "firestore", "cosmos", "azure-blob", "azure-table", "spanner"));
        absent.removeAll(kept);
        return run(
                entry -> absent.stream()
                        .noneMatch(store -> entry.contains("providers" + File.separator + store + File.separator)
                                || entry.contains("cloudlock-" + store)),
                properties);
    }

    private static String run(Predicate<String> classPathEntry, String... properties) throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(classPathEntry)
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classPath,
                StoresOnTheClassPathTest.class.getName(),
                "server.port=0",
                "spring.main.web-application-type=none"));
        command.addAll(List.of(properties));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    @Test
    void withoutTheCosmosModuleTheOtherStoresWorkAndCosmosIsRefusedNamingTheStoresThereAre() throws Exception {
        assertThat(run(false, "cloudlock.store=in-memory")).contains("started on");

        String refused = run(false, "cloudlock.store=cosmos");
        assertThat(refused)
                .contains("failed: ", "cloudlock.store", "'cosmos'", "dev.cloudlock:cloudlock-cosmos")
                .contains("dynamodb", "in-memory");
        String named = refused.substring(refused.indexOf("the stores there are"));
        assertThat(named.substring(0, named.indexOf('.'))).doesNotContain("cosmos");
    }

    @Test
    void withTheCosmosModuleTheSameSettingFindsTheStore() throws Exception {
        String found = run(true, "cloudlock.store=cosmos");
        assertThat(found).contains("failed: ").doesNotContain("no store of that name");
        assertThat(found).contains("cloudlock.cosmos.");
    }

    @Test
    void withoutCloudlockStoreTheOneStoreModuleOnTheClassPathHoldsTheLocks() throws Exception {
        String chosen = runWithStoreModules(List.of("dynamodb"));
        assertThat(chosen).contains("failed: ", "cloudlock.dynamodb.table-name is not set");

        String started = runWithStoreModules(
                List.of("dynamodb"),
                "cloudlock.dynamodb.table-name=locks",
                "cloudlock.dynamodb.region=us-east-1",
                "cloudlock.check-on-startup=false",
                "cloudlock.locked-by=one-module");
        assertThat(started)
                .contains("started on ")
                .contains("Locks on dynamodb (cloudlock.dynamodb.table-name=locks,"
                        + " cloudlock.dynamodb.partition-key=_id, cloudlock.dynamodb.region=us-east-1),"
                        + " locked by one-module");
    }

    @Test
    void withoutCloudlockStoreAndWithoutAStoreModuleStartupFailsNamingTheModuleToAdd() throws Exception {
        assertThat(runWithStoreModules(List.of()))
                .contains("failed: cloudlock.store is not set, and no store module is on the class path");
    }

    @Test
    void withoutCloudlockStoreTwoStoreModulesAreRefusedNamingBoth() throws Exception {
        assertThat(runWithStoreModules(List.of("dynamodb", "s3")))
                .contains("failed: cloudlock.store is not set, and several store modules are on the class path:"
                        + " dynamodb, s3");
    }
}
