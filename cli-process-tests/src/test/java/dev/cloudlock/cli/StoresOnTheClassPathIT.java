package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The command offers the stores on its class path and no others. Its classes run on its runtime class path less one
 * store module and that store's SDK (the build writes these class paths): the missing store is refused, naming the
 * stores there are; the options of settings only it takes are gone; the other stores work. This test's own class path
 * holds every store module the command's jar does, so it knows what the jar offers.
 */
class StoresOnTheClassPathIT {

    static {
        // The build points this JVM's trust store at the Cosmos launcher's (see CliContract): it must exist by the
        // first TLS context, which the emulators' HTTP client makes.
        Emulators.cosmosTrustStore();
    }

    private static final Map<String, String> AWS =
            Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");

    @Test
    void withoutTheCosmosModuleDynamoDbWorksAndCosmosIsRefusedNamingTheStoresThereAre() {
        String classPath = "classpath-without-cosmos.txt";
        assertRefusedAndWithoutItsOptions("cosmos", classPath);

        List<String> dynamoDb = List.of(
                "--store",
                "dynamodb",
                "--endpoint",
                Emulators.moto().endpoint(),
                "--table-name",
                "cli-classpath-" + UUID.randomUUID().toString().substring(0, 8));
        CliProcess.Run init = CliProcess.runOnClassPath(classPath, AWS, with(dynamoDb, "init"));
        assertThat(init.exitCode()).as(init.toString()).isZero();
        CliProcess.Run list = CliProcess.runOnClassPath(classPath, AWS, with(dynamoDb, "list", "--json"));
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out().strip()).isEqualTo("{\"locks\":[],\"skipped\":[]}");
    }

    @Test
    void withoutTheDynamoDbModuleDynamoDbAndItsOptionsAreGoneWhileTheJarHasThem() {
        String classPath = "classpath-without-dynamodb.txt";
        assertRefusedAndWithoutItsOptions("dynamodb", classPath);

        CliProcess.Run inMemory =
                CliProcess.runOnClassPath(classPath, Map.of(), List.of("--store", "in-memory", "list", "--json"));
        assertThat(inMemory.exitCode()).as(inMemory.toString()).isZero();

        CliProcess.Run jarHelp = CliProcess.run(Map.of(), List.of(), List.of("--help"));
        assertThat(jarHelp.exitCode()).as(jarHelp.toString()).isZero();
        assertThat(jarHelp.out())
                .as("the negative control: the jar has the DynamoDB module")
                .contains("--table-name=");
    }

    /**
     * On {@code classPath}, which lacks the store {@code absent}, {@code --store absent} is usage naming the stores
     * there are; the help lists an option for each setting of those stores, and none for a setting only {@code absent}
     * takes.
     */
    private static void assertRefusedAndWithoutItsOptions(String absent, String classPath) {
        CliProcess.Run refused = CliProcess.runOnClassPath(classPath, AWS, List.of("--store", absent, "list"));
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(2);
        assertThat(refused.err())
                .contains("'" + absent + "' is no store on this command's class path: use one of " + namesBut(absent));

        CliProcess.Run help = CliProcess.runOnClassPath(classPath, Map.of(), List.of("--help"));
        assertThat(help.exitCode()).as(help.toString()).isZero();
        Set<String> present = settingNames(StoreType.all().stream()
                .filter(type -> !type.name().equals(absent))
                .toList());
        Set<String> onlyAbsent = settingNames(StoreType.find(absent).stream().toList());
        onlyAbsent.removeAll(present);
        for (String setting : present) {
            assertThat(help.out()).as(help.toString()).contains("--" + setting + "=");
        }
        for (String setting : onlyAbsent) {
            assertThat(help.out()).as(help.toString()).doesNotContain("--" + setting + "=");
        }
    }

    private static Set<String> settingNames(List<StoreType> types) {
        return types.stream()
                .flatMap(type -> type.settings().stream())
                .map(StoreSetting::name)
                .collect(Collectors.toCollection(HashSet::new));
    }

    /** The names of the stores on this test's class path but {@code absent}, as the command lists them. */
    private static String namesBut(String absent) {
        return StoreType.all().stream()
                .map(StoreType::name)
                .filter(name -> !name.equals(absent))
                .collect(Collectors.joining(", "));
    }

    private static List<String> with(List<String> store, String... args) {
        List<String> all = new java.util.ArrayList<>(store);
        all.addAll(List.of(args));
        return all;
    }
}
