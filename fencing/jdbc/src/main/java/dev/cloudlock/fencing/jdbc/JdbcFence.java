package dev.cloudlock.fencing.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The fence of a SQL row: a nullable {@code BIGINT} column holding the fencing token of the newest holding that wrote
 * the row, and the condition every fenced write adds to its {@code WHERE}: the row holds no token or one not newer
 * than the writer's ({@link dev.cloudlock.core.FencingTokens#admits}, said in SQL).
 *
 * <p>For a statement of one's own:
 *
 * <pre>{@code
 * JdbcFence fence = JdbcFence.inColumn("fence");
 * PreparedStatement update = connection.prepareStatement(
 *         "UPDATE reports SET body = ?, " + fence.assignment() + " WHERE id = ? AND " + fence.condition());
 * update.setString(1, body);
 * update.setLong(2, token);   // the assignment's parameter
 * update.setString(3, id);
 * update.setLong(4, token);   // the condition's parameter
 * if (update.executeUpdate() == 0) { ... absent, or refused: a newer holding wrote the row }
 * }</pre>
 *
 * {@link JdbcFencedTable} does this and tells the two cases apart.
 */
public final class JdbcFence {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*(\\.[A-Za-z_][A-Za-z0-9_$]*)*");

    private final String column;

    private JdbcFence(String column) {
        this.column = identifier(column, "fence column");
    }

    /** The fence kept in {@code column}, a nullable {@code BIGINT}. */
    public static JdbcFence inColumn(String column) {
        return new JdbcFence(Objects.requireNonNull(column, "column"));
    }

    /** The fence column's name. */
    public String column() {
        return column;
    }

    /** {@code (fence IS NULL OR fence <= ?)}: one parameter, the writer's token. */
    public String condition() {
        return "(" + column + " IS NULL OR " + column + " <= ?)";
    }

    /** {@code fence = ?}, for the statement's {@code SET}: one parameter, the writer's token. */
    public String assignment() {
        return column + " = ?";
    }

    /**
     * {@code name}, checked to be a plain SQL identifier, optionally qualified ({@code schema.table}): the helpers
     * build their statements from names, and a name that is not one is refused rather than pasted into SQL.
     */
    static String identifier(String name, String what) {
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("the " + what + " '" + name
                    + "' is not a plain SQL identifier (letters, digits, _ and $, optionally schema-qualified)");
        }
        return name;
    }
}
