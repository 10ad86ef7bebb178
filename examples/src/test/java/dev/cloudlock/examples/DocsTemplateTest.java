package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every store and function page, and the reactive jobs page, follows one template, so a reader finds the same answer in
 * the same place.
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
    static final List<String> PAGES = List.of(
            "stores/dynamodb.md",
            "stores/s3.md",
            "stores/firestore.md",
            "stores/cosmos.md",
            "stores/azure-blob.md",
            "stores/azure-table.md",
            "functions/aws-lambda.md",
            "functions/gcp-functions.md",
            "functions/azure-functions.md",
            "functions/spring-cloud-function.md",
            "reactive.md");

    private final Path root = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyStoreAndFunctionPageHasTheTemplatesHeadingsInOrder() throws IOException {
        for (String page : PAGES) {
            assertThat(headings(root.resolve("docs").resolve(page))).as(page).isEqualTo(TEMPLATE);
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
