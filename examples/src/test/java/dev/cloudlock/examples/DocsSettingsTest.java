package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.InMemoryStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of the docs hold every setting of every store the build registers, as its descriptor names
 * it: the starter's properties ({@code cloudlock.<store>.<setting>} in docs/spring-boot.md, or {@code .<setting>} on
 * a row of the store's other properties) and the command's options
 * ({@code --<setting>} on the store's row of docs/operations.md, the row that names the store as {@code (`<store>`)}).
 * A store added, or a setting added to a store, without its line in the docs is caught.
 */
class DocsSettingsTest {

    private final Path docs = Path.of("..", "docs").toAbsolutePath().normalize();

    @Test
    void everySettingOfEveryStoreIsInTheStartersAndTheCommandsTables() throws IOException {
        String springBoot = Files.readString(docs.resolve("spring-boot.md"));
        List<String> operations = Files.readAllLines(docs.resolve("operations.md"));
        List<String> missing = new ArrayList<>();
        for (StoreType type : StoreType.all()) {
            if (type.name().equals(InMemoryStoreType.NAME)) {
                continue;
            }
            String row = operations.stream()
                    .filter(line -> line.startsWith("| ") && line.contains("(`" + type.name() + "`)"))
                    .findFirst()
                    .orElse(null);
            if (row == null) {
                missing.add("operations.md: no row for (`" + type.name() + "`)");
            }
            for (StoreSetting setting : type.settings()) {
                String property = "`cloudlock." + type.name() + "." + setting.name() + "`";
                // a row may name several of a store's properties: `cloudlock.s3.endpoint`, `.region`
                String shortened = "`." + setting.name() + "`";
                if (!springBoot.contains(property)
                        && springBoot
                                .lines()
                                .noneMatch(line ->
                                        line.contains("`cloudlock." + type.name() + ".") && line.contains(shortened))) {
                    missing.add("spring-boot.md: " + property);
                }
                String option = "`--" + setting.name() + "`";
                if (row != null && !row.contains(option)) {
                    missing.add("operations.md, the row of " + type.name() + ": " + option);
                }
            }
        }
        assertThat(missing).as("settings the docs do not list").isEmpty();
    }
}
