package dev.cloudlock.spi;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * What a user may have meant by a name nothing answers to, for a message's "did you mean": the CLI's commands and
 * options, the stores' names ({@link StoreType}).
 */
public final class NearMisses {

    private NearMisses() {}

    /**
     * The candidates {@code given} is a near miss of, nearest first: at most two edits away (one for a name of four
     * letters or fewer; swapping two neighbours is one edit), or, for an option ({@code --...}), the start of its name.
     */
    public static List<String> of(String given, Collection<String> candidates) {
        String bare = given.replaceFirst("^-+", "");
        int allowed = bare.length() <= 4 ? 1 : 2;
        return candidates.stream()
                .filter(c -> distance(given, c) <= allowed
                        || (given.startsWith("--") && bare.length() >= 3 && c.startsWith(given)))
                .distinct()
                .sorted(Comparator.comparingInt(c -> distance(given, c)))
                .toList();
    }

    /** The edits (insert, delete, replace, swap two neighbours) that turn {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
