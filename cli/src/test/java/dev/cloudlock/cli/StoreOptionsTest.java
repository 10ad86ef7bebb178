package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The store options made from store types: one option per setting name, however many stores take it, with help
 * naming each store that reads it; the values given reach each store's settings, whichever side of the subcommand
 * they stand on.
 */
class StoreOptionsTest {

    private static final StoreSetting ALPHA_ENDPOINT =
            StoreSetting.optional("endpoint", "http://127.0.0.1:1", "Alpha's endpoint URL.");
    private static final StoreSetting ALPHA_TABLE = StoreSetting.required(
                    "table-name", "Alpha's table, unless the application has a TableClient.")
            .withStandaloneDescription("Alpha's table.");
    private static final StoreSetting BETA_ENDPOINT = StoreSetting.ofOwnClient("endpoint", null, "Beta's host:port");
    private static final StoreSetting BETA_PREFIX =
            StoreSetting.optional("prefix", "locks/", "Names start with this; 100% of them, not ${HOME}.");

    private static final StoreType ALPHA = new FakeStore("alpha", List.of(ALPHA_ENDPOINT, ALPHA_TABLE));
    private static final StoreType BETA = new FakeStore("beta", List.of(BETA_ENDPOINT, BETA_PREFIX));

    @Command(name = "tool", subcommands = Sub.class)
    static final class Tool {}

    @Command(name = "sub")
    static final class Sub implements Runnable {
        @Override
        public void run() {}
    }

    private static CommandLine tool(StoreOptions options) {
        CommandLine line = new CommandLine(new Tool());
        options.addTo(line);
        return line;
    }

    @Test
    void aSettingTwoStoresTakeIsOneOptionWhoseHelpNamesEachStoreWithItsDefault() {
        String help = tool(new StoreOptions(List.of(ALPHA, BETA)))
                .setUsageHelpWidth(200) // one line per store
                .getUsageMessage();

        assertThat(help.split("--endpoint=<endpoint>", -1)).as(help).hasSize(3); // once in the synopsis, once listed
        assertThat(help)
                .contains("alpha: Alpha's endpoint URL. Default: http://127.0.0.1:1.")
                .contains("beta: Beta's host:port.")
                .contains("--table-name=<table-name>", "alpha: Alpha's table. Required.")
                .contains("beta: Names start with this; 100% of them, not ${HOME}. Default: locks/.");
    }

    @Test
    void theHelpLeavesOutTheWordsForAnApplicationWithItsOwnClient() {
        String help = tool(new StoreOptions(List.of(ALPHA, BETA)))
                .setUsageHelpWidth(200)
                .getUsageMessage();

        assertThat(BETA_ENDPOINT.description())
                .as("Spring's metadata keeps them")
                .isEqualTo("Beta's host:port; ignored when the application has its own client.");
        assertThat(help)
                .contains("beta: Beta's host:port.", "alpha: Alpha's table. Required.")
                .doesNotContain("ignored when the application", "TableClient");
    }

    @Test
    void theValuesGivenReachEachStoresSettingsOnEitherSideOfTheSubcommand() {
        StoreOptions options = new StoreOptions(List.of(ALPHA, BETA));
        tool(options).parseArgs("--endpoint", "http://10.0.0.1:8000", "sub", "--table-name", "locks");

        StoreSettings alpha = options.settings(ALPHA);
        assertThat(alpha.get(ALPHA_ENDPOINT)).hasValue("http://10.0.0.1:8000");
        assertThat(alpha.require(ALPHA_TABLE)).isEqualTo("locks");
        StoreSettings beta = options.settings(BETA);
        assertThat(beta.get(BETA_ENDPOINT)).hasValue("http://10.0.0.1:8000");
        assertThat(beta.get(BETA_PREFIX)).as("the store's default").hasValue("locks/");
    }

    @Test
    void aMissingSettingIsNamedAsTheOption() {
        StoreOptions options = new StoreOptions(List.of(ALPHA, BETA));
        tool(options).parseArgs("sub");

        assertThat(options.settings(ALPHA).get(ALPHA_ENDPOINT))
                .as("the store's default")
                .hasValue("http://127.0.0.1:1");
        assertThatThrownBy(() -> options.settings(ALPHA).require(ALPHA_TABLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--table-name is not set");
    }

    /** A store type that only describes its settings. */
    private record FakeStore(String name, List<StoreSetting> settings) implements StoreType {
        @Override
        public String title() {
            return name;
        }

        @Override
        public CloudLockProviderBuilder<?> builder(StoreSettings settings) {
            throw new UnsupportedOperationException("the options are under test, not the store");
        }

        @Override
        public String setupFix(StoreSettings settings) {
            return "nothing";
        }
    }
}
