package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.cloudlock.azuretable.AzureTableLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CLI on Table Storage (Azurite's table service), with the account's connection string in
 * {@code CLOUDLOCK_AZURE_TABLE_CONNECTION_STRING} as an operator would export it; {@code init} creates the table.
 */
class AzureTableCliIT extends CliContract {

    private static String connectionString() {
        return Emulators.azuriteTableConnectionString(Emulators.azuriteTable().endpoint());
    }

    /** A table name from the contract's coordinates: Table Storage allows letters and digits only. */
    private static String table(String coordinates) {
        return "t" + coordinates.replaceAll("[^A-Za-z0-9]", "");
    }

    @Override
    protected List<String> storeArgs(String coordinates) {
        return List.of("--store", "azure-table", "--table", table(coordinates));
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "azure-table",
                "--connection-string",
                "DefaultEndpointsProtocol=http;AccountName=" + Emulators.AZURITE_ACCOUNT
                        + ";AccountKey=a2V5;TableEndpoint=" + "http://127.0.0.1:" + EmulatorProcess.freePort() + "/"
                        + Emulators.AZURITE_ACCOUNT + ";");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("CLOUDLOCK_AZURE_TABLE_CONNECTION_STRING", connectionString());
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Override
    protected CloudLockProvider provider(String coordinates, String lockedBy) {
        TableServiceClient service = new TableServiceClientBuilder()
                .connectionString(connectionString())
                .buildClient();
        service.createTableIfNotExists(table(coordinates));
        return AzureTableLockProvider.builder()
                .table(service.getTableClient(table(coordinates)))
                .lockedBy(lockedBy)
                .build();
    }

    /** An account key the store rejects is a setup problem that says so: exit 3, the credentials named. */
    @Test
    void aWrongAccountKeyIsASetupErrorThatNamesTheCredentials() {
        String wrongKey =
                connectionString().replace(Emulators.AZURITE_KEY, "d3Jvbmcta2V5LW9mLXRoaXJ0eS10d28tYnl0ZXMhIQ==");
        CliProcess.Run run = cli(List.of("--store", "azure-table", "--connection-string", wrongKey), "list");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
        assertThat(run.err())
                .as(run.toString())
                .contains("Table Storage denied list", "check the account key", "Azurite answers this to a wrong key");
    }
}
