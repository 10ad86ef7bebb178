package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The guards' one naming rule for a store's variables, held to every {@link StoreType} on this module's test class
 * path (every store module of the repository is there, in test scope).
 */
class GuardStoreTest {

    static Stream<StoreType> stores() {
        return StoreType.all().stream();
    }

    @Test
    void everyStoreOfTheRepositoryIsOnTheTestClassPath() {
        assertThat(StoreType.all())
                .extracting(StoreType::name)
                .contains("dynamodb", "s3", "firestore", "cosmos", "azure-blob", InMemoryStoreType.NAME);
    }

    @Test
    void aSettingsVariableIsTheStoreAndTheSettingInUpperCaseWithUnderscores() {
        assertThat(GuardStore.variable(StoreType.named("dynamodb", "test"), setting("dynamodb", "table-name")))
                .isEqualTo("CLOUDLOCK_DYNAMODB_TABLE_NAME");
        assertThat(GuardStore.variable(StoreType.named("azure-blob", "test"), setting("azure-blob", "container")))
                .isEqualTo("CLOUDLOCK_AZURE_BLOB_CONTAINER");
        assertThat(GuardStore.variable(
                        StoreType.named("azure-blob", "test"), setting("azure-blob", "connection-string")))
                .isEqualTo("CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING");
    }

    @Test
    void noTwoSettingsOfTheStoresShareAVariableAndNoneIsAGuardSettingsVariable() {
        Set<String> seen = new HashSet<>();
        GuardSetting.all().forEach(setting -> seen.add(setting.variable()));
        seen.add(GuardStore.STORE);
        List<String> clashes = new ArrayList<>();
        for (StoreType type : StoreType.all()) {
            for (StoreSetting setting : type.settings()) {
                String variable = GuardStore.variable(type, setting);
                assertThat(variable).matches("CLOUDLOCK_[A-Z0-9]+(_[A-Z0-9]+)*");
                if (!seen.add(variable)) {
                    clashes.add(variable);
                }
            }
        }
        assertThat(clashes).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aMissingRequiredSettingIsNamedByItsVariable(StoreType type) {
        List<StoreSetting> required =
                type.settings().stream().filter(StoreSetting::required).toList();
        Map<String, String> env = new HashMap<>(Map.of(GuardStore.STORE, type.name()));
        for (StoreSetting missing : required) {
            assertThatThrownBy(() -> GuardStore.builder(env, client -> null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(GuardStore.variable(type, missing) + " is not set");
            env.put(GuardStore.variable(type, missing), "locks");
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aBadUrlIsNamedByItsVariable(StoreType type) {
        for (StoreSetting url : type.settings()) {
            if (url.kind() != StoreSetting.Kind.URL) {
                continue;
            }
            Map<String, String> env = new HashMap<>(Map.of(GuardStore.STORE, type.name()));
            type.settings().stream()
                    .filter(StoreSetting::required)
                    .forEach(required -> env.put(GuardStore.variable(type, required), "locks"));
            env.put(GuardStore.variable(type, url), "127.0.0.1:1");
            assertThatThrownBy(() -> GuardStore.builder(env, client -> null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(GuardStore.variable(type, url) + " 127.0.0.1:1 is not a URL");
        }
    }

    @Test
    void aRetiredVariableIsRefusedNamingItsReplacement() {
        assertThat(GuardStore.retiredVariables()).isNotEmpty();
        Set<String> variables = new HashSet<>();
        StoreType.all()
                .forEach(type -> type.settings().forEach(setting -> variables.add(GuardStore.variable(type, setting))));
        GuardStore.retiredVariables().forEach((old, replacement) -> {
            assertThat(variables).as("the replacement of " + old).contains(replacement);
            Map<String, String> env = Map.of(GuardStore.STORE, InMemoryStoreType.NAME, old, "locks");
            assertThatThrownBy(() -> GuardStore.builder(env, client -> null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(old + " is set")
                    .hasMessageContaining("set " + replacement + " instead");
        });
    }

    @Test
    void anUnknownStoreIsNamedWithTheStoresThereAre() {
        assertThatThrownBy(() -> GuardStore.builder(Map.of(GuardStore.STORE, "dynamo"), client -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_STORE is 'dynamo'")
                .hasMessageContaining("did you mean 'dynamodb'")
                .hasMessageContaining("azure-blob, cosmos, dynamodb, firestore, in-memory, s3");
    }

    @Test
    void withSeveralStoreModulesTheStoreMustBeNamed() {
        assertThatThrownBy(() -> GuardStore.builder(Map.of(), client -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_STORE is not set, and several store modules are on the class path"
                        + " (azure-blob, cosmos, dynamodb, firestore, s3)");
    }

    @Test
    void theNamedStoreIsBuiltFromItsVariablesOnTheFunctionsClient() {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build()) {
            CloudLockProvider provider = GuardStore.builder(
                            Map.of(GuardStore.STORE, "dynamodb", "CLOUDLOCK_DYNAMODB_TABLE_NAME", "locks"),
                            type -> type == DynamoDbClient.class ? client : null)
                    .lockedBy("test")
                    .build();
            assertThat(provider.lockedBy()).isEqualTo("test");
        }
        CloudLockProvider inMemory = GuardStore.builder(Map.of(GuardStore.STORE, InMemoryStoreType.NAME), c -> null)
                .build();
        assertThat(inMemory).isNotNull();
    }

    @Test
    void aMisspelledSettingOfTheStoreIsNamedWithTheOneMeant() {
        Map<String, String> env = Map.of(
                GuardStore.STORE,
                "dynamodb",
                "CLOUDLOCK_DYNAMODB_TABLE_NAME",
                "locks",
                "CLOUDLOCK_DYNAMODB_REGOIN",
                "eu-west-1");
        assertThatThrownBy(() -> GuardStore.builder(env, type -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_DYNAMODB_REGOIN is set, and the store dynamodb has no such setting:"
                        + " did you mean CLOUDLOCK_DYNAMODB_REGION?");
    }

    private static StoreSetting setting(String store, String name) {
        return StoreType.named(store, "test").settings().stream()
                .filter(setting -> setting.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
