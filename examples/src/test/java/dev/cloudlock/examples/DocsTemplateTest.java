package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.InMemoryStoreType;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every store and function page, and the reactive jobs page, follows one template, so a reader finds the same answer in
 * the same place; and every store has its page, named after it, and every store page a store this build registers.
 */
class DocsTemplateTest {

    static final List<String> TEMPLATE = List.of(
            "Install",
            "Configure",
            "Record layout",
            "Permissions (IAM / roles)",
            "Errors you may see",
            "Requests and cost",
            "Limits",
            "How it is tested");
    private final Path root = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyStoreAndFunctionPageHasTheTemplatesHeadingsInOrder() throws IOException {
        List<Path> pages = Stream.concat(
                        Stream.concat(pages("stores").stream(), pages("functions").stream()),
                        Stream.of(root.resolve("docs/reactive.md")))
                .toList();
        assertThat(pages).hasSizeGreaterThanOrEqualTo(12);
        for (Path page : pages) {
            assertThat(headings(page)).as(root.relativize(page).toString()).isEqualTo(TEMPLATE);
        }
    }

    /**
     * The store pages are {@code docs/stores/<store>.md} for exactly the stores the build registers (all of them are on
     * this module's class path): a store without its page, or a page whose store is not registered, is caught.
     */
    @Test
    void everyStoreTheBuildRegistersHasItsPageAndNoOther() throws IOException {
        List<String> stores = StoreType.all().stream()
                .map(StoreType::name)
                .filter(name -> !name.equals(InMemoryStoreType.NAME))
                .sorted()
                .toList();
        List<String> pages = pages("stores").stream()
                .map(page -> page.getFileName().toString().replaceFirst("\\.md$", ""))
                .sorted()
                .toList();
        assertThat(pages).isEqualTo(stores);
    }

    private List<Path> pages(String folder) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("docs").resolve(folder))) {
            return files.filter(file -> file.toString().endsWith(".md"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void aPageWithAHeadingOutOfOrderIsCaught() throws IOException {
        Path page = Files.createTempFile("page", ".md");
        try {
            Files.writeString(page, "# X\n\n## Install\n\n## Limits\n\n## Configure\n");
            assertThat(headings(page)).isNotEqualTo(TEMPLATE);
        } finally {
            Files.delete(page);
        }
    }

    @Test
    void theReadmeStaysUnderTenKilobytes() throws IOException {
        assertThat(Files.size(root.resolve("README.md"))).isLessThanOrEqualTo(10 * 1024);
    }

    private static List<String> headings(Path page) throws IOException {
        boolean[] inCode = {false};
        return Files.readAllLines(page).stream()
                .filter(line -> {
                    if (line.startsWith("```")) {
                        inCode[0] = !inCode[0];
                    }
                    return !inCode[0] && line.startsWith("## ");
                })
                .map(line -> line.substring(3).strip())
                .toList();
    }
}
