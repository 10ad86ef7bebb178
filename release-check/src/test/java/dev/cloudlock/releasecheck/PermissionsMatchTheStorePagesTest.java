package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every permission a store's messages tell the user to grant (its main sources: the fix lines, the access-denied
 * messages) is one its docs page names, and none is one the page's "Permissions" section says never to grant. A
 * permission is an AWS action ({@code s3:GetObject}), a GCP role ({@code roles/datastore.user}) or an Azure role
 * ({@code Storage Blob Data Contributor}).
 */
class PermissionsMatchTheStorePagesTest {

    private static final Pattern PERMISSION = Pattern.compile(
            "\\b(?:s3|dynamodb):[A-Z][A-Za-z]+|\\broles/[a-z][a-zA-Z.]+[a-zA-Z]|\\b(?:[A-Z][a-z]+ )+Data Contributor");
    /** A permission the page names only to forbid it: "no `s3:DeleteObject`", "never `...`". */
    private static final Pattern FORBIDDEN = Pattern.compile("\\b(?:no|never) `([^`]+)`");

    @Test
    void theMessagesOfEveryStoreNameOnlyPermissionsItsPageGrants() {
        Path root = RepositoryFiles.root();
        List<String> wrong = new ArrayList<>();
        int stores = 0;
        for (Path module : list(root.resolve("providers"))) {
            Path page = root.resolve("docs/stores/" + module.getFileName() + ".md");
            if (!Files.isRegularFile(page)) {
                continue;
            }
            stores++;
            StringBuilder sources = new StringBuilder();
            for (Path file : RepositoryFiles.all(module.resolve("src/main/java"))) {
                sources.append(read(file)).append('\n');
            }
            wrong.addAll(mismatches(module.getFileName().toString(), sources.toString(), read(page)));
        }
        assertThat(stores).as("stores with a docs page").isGreaterThanOrEqualTo(5);
        assertThat(wrong)
                .as("permissions the messages name against docs/stores/<store>.md: correct the message or the page")
                .isEmpty();
    }

    /** The negative control: the fix line S3 had, which named s3:DeleteObject, and a permission no page names. */
    @Test
    void aForbiddenOrUnknownPermissionIsReported() {
        String page = """
                ## Permissions (IAM / roles)

                `s3:GetObject` and `s3:PutObject` on the keys, and `s3:ListBucket` on the bucket. Objects are never
                deleted: no `s3:DeleteObject`.

                ## Errors you may see
                """;
        String oldFix = "\"grant the caller s3:GetObject, s3:PutObject and s3:DeleteObject on the keys\"";
        String unknown = "\"grant s3:GetObject and s3:PutObjectAcl\"";
        String right = "\"grant s3:GetObject and s3:PutObject on the keys, and s3:ListBucket on the bucket\"";

        assertThat(mismatches("s3", oldFix, page))
                .containsExactly("s3: the messages name s3:DeleteObject, which the page says never to grant");
        assertThat(mismatches("s3", unknown, page))
                .containsExactly("s3: the messages name s3:PutObjectAcl, which the page does not name");
        assertThat(mismatches("s3", right, page)).isEmpty();
    }

    /** What is wrong with the permissions {@code sources} name, against the store's docs {@code page}. */
    static List<String> mismatches(String store, String sources, String page) {
        Set<String> forbidden = new TreeSet<>();
        Matcher never = FORBIDDEN.matcher(permissionsSection(page));
        while (never.find()) {
            forbidden.add(never.group(1));
        }
        Set<String> named = new TreeSet<>();
        Matcher permission = PERMISSION.matcher(sources);
        while (permission.find()) {
            named.add(permission.group());
        }
        List<String> wrong = new ArrayList<>();
        for (String name : named) {
            if (forbidden.contains(name)) {
                wrong.add(store + ": the messages name " + name + ", which the page says never to grant");
            } else if (!page.contains(name)) {
                wrong.add(store + ": the messages name " + name + ", which the page does not name");
            }
        }
        return wrong;
    }

    private static String permissionsSection(String page) {
        int start = page.indexOf("## Permissions");
        if (start < 0) {
            return "";
        }
        int end = page.indexOf("\n## ", start + 1);
        return end < 0 ? page.substring(start) : page.substring(start, end);
    }

    private static List<Path> list(Path dir) {
        try (var entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
