package dev.cloudlock.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a store's page says its users must be granted: the table under {@code ## Permissions} of
 * {@code docs/stores/<store>.md}, one row per grant (an IAM action or a role), its first column's first {@code `code`}
 * the grant, optional when its last column starts with "optional". The one source the Terraform modules' grants are
 * compared with.
 *
 * @param store the store's name ({@code StoreType.name()}), which names its page
 * @param required the grants the store cannot work without
 * @param optional the grants it may be given besides
 */
record StorePermissions(String store, Set<String> required, Set<String> optional) {

    private static final Pattern GRANT = Pattern.compile("^\\|\\s*[^`|]*`([^`]+)`[^|]*\\|.*\\|\\s*([^|]*?)\\s*\\|$");

    static StorePermissions of(String store) {
        Path page = Node.INFRA_DIR.toAbsolutePath().normalize().resolveSibling("docs/stores/" + store + ".md");
        try {
            return read(store, Files.readString(page, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("no page for the store " + store, e);
        }
    }

    /** The grants of {@code markdown}'s permissions table. */
    static StorePermissions read(String store, String markdown) {
        int section = markdown.indexOf("\n## Permissions");
        if (section < 0) throw new IllegalStateException(store + ": no '## Permissions' section");
        int end = markdown.indexOf("\n## ", section + 1);
        Set<String> required = new TreeSet<>();
        Set<String> optional = new TreeSet<>();
        for (String line :
                markdown.substring(section, end < 0 ? markdown.length() : end).split("\n")) {
            Matcher row = GRANT.matcher(line.strip());
            if (row.matches()) {
                (row.group(2).startsWith("optional") ? optional : required).add(row.group(1));
            }
        }
        if (required.isEmpty()) throw new IllegalStateException(store + ": its permissions table has no grant");
        return new StorePermissions(store, required, optional);
    }

    /** What is wrong with granting {@code granted}: a required grant missing, or one the page does not name. */
    Set<String> problems(Set<String> granted, String grantor) {
        Set<String> problems = new TreeSet<>();
        for (String grant : required) {
            if (!granted.contains(grant)) {
                problems.add(grantor + " does not grant " + grant + ", which the " + store + " page requires");
            }
        }
        for (String grant : granted) {
            if (!required.contains(grant) && !optional.contains(grant)) {
                problems.add(grantor + " grants " + grant + ", which the " + store + " page does not name");
            }
        }
        return problems;
    }
}
