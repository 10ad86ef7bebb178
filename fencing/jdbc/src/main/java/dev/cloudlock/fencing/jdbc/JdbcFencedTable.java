package dev.cloudlock.fencing.jdbc;

import dev.cloudlock.core.FencingTokens;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Fenced writes to the rows of one table, each row found by its key columns (a primary key or unique constraint) and
 * fenced by a {@link JdbcFence} column. Every statement is built from the names given here (checked to be plain
 * identifiers) and binds every value as a parameter. The caller owns the connection and its transaction: nothing here
 * commits; when the connection is not in auto-commit, the insert of {@link #upsert} runs under a savepoint, so a lost
 * race does not abort the caller's transaction (PostgreSQL's rule).
 *
 * <p>Statements per write: {@link #update} of a row this holding or an older one wrote, 1; a refused write, 2 (the
 * update, then a read of the fence to say why); {@link #upsert} of a new row, 3 (update, read, insert). The first
 * write through an instance also reads the fence column's type, once: a column that cannot hold only whole numbers
 * (text, a fraction) is refused before anything is written, as is a stored value outside the token's range
 * ({@link NotAFencingTokenException}).
 */
public final class JdbcFencedTable {

    private final String table;
    private final List<String> keyColumns;
    private final JdbcFence fence;
    private volatile boolean columnChecked;

    private JdbcFencedTable(String table, JdbcFence fence, List<String> keyColumns) {
        this.table = JdbcFence.identifier(table, "table");
        this.fence = fence;
        if (keyColumns.isEmpty()) {
            throw new IllegalArgumentException("no key column for table '" + table + "'");
        }
        keyColumns.forEach(c -> JdbcFence.identifier(c, "key column"));
        this.keyColumns = List.copyOf(keyColumns);
    }

    /** The rows of {@code table}, found by {@code keyColumns} and fenced by {@code fence}. */
    public static JdbcFencedTable of(String table, JdbcFence fence, String... keyColumns) {
        return new JdbcFencedTable(table, Objects.requireNonNull(fence, "fence"), List.of(keyColumns));
    }

    /**
     * Updates the row with {@code key} to {@code values} and its fence to {@code token}, if its fence admits the token.
     *
     * @param key a value for each key column
     * @param values the columns to set (not the key columns nor the fence)
     * @return whether the row was there (false: nothing written, the row is absent)
     * @throws StaleFencingTokenException when the row holds a newer token (nothing written)
     * @throws NotAFencingTokenException when the fence column or the row's fence holds no token (nothing written)
     */
    public boolean update(Connection connection, Map<String, ?> key, Map<String, ?> values, long token)
            throws SQLException {
        List<Map.Entry<String, ?>> keys = keyEntries(key);
        List<Map.Entry<String, ?>> sets = valueEntries(values);
        checkColumn(connection);
        for (int attempt = 1; attempt <= FencingTokens.MAX_ATTEMPTS; attempt++) {
            if (tryUpdate(connection, keys, sets, token)) {
                return true;
            }
            Row row = readFence(connection, keys);
            if (!row.present()) {
                return false;
            }
            FencingTokens.check(resource(key), FencingTokens.stored(resource(key), row.fence()), token);
            // admitted now: the row changed between the update and the read; update again
        }
        throw lostRaces(key, token);
    }

    /**
     * Writes the row with {@code key}: updates it as {@link #update} does, or inserts it with the token when it is
     * absent. A row inserted by a racing writer in between is then updated (or refused) in turn.
     *
     * @throws StaleFencingTokenException when the row holds a newer token (nothing written)
     * @throws NotAFencingTokenException when the fence column or the row's fence holds no token (nothing written)
     */
    public void upsert(Connection connection, Map<String, ?> key, Map<String, ?> values, long token)
            throws SQLException {
        List<Map.Entry<String, ?>> keys = keyEntries(key);
        List<Map.Entry<String, ?>> sets = valueEntries(values);
        for (int attempt = 1; attempt <= FencingTokens.MAX_ATTEMPTS; attempt++) {
            if (update(connection, key, values, token)) {
                return;
            }
            if (tryInsert(connection, keys, sets, token)) {
                return;
            }
        }
        throw lostRaces(key, token);
    }

    private boolean tryUpdate(
            Connection connection, List<Map.Entry<String, ?>> keys, List<Map.Entry<String, ?>> sets, long token)
            throws SQLException {
        String assignments = sets.stream().map(e -> e.getKey() + " = ?").collect(Collectors.joining(", "));
        String sql = "UPDATE " + table + " SET " + (assignments.isEmpty() ? "" : assignments + ", ")
                + fence.assignment() + " WHERE " + keyCondition() + " AND " + fence.condition();
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            int i = 1;
            for (Map.Entry<String, ?> set : sets) {
                update.setObject(i++, set.getValue());
            }
            update.setLong(i++, token);
            for (Map.Entry<String, ?> k : keys) {
                update.setObject(i++, k.getValue());
            }
            update.setLong(i, token);
            return update.executeUpdate() > 0;
        }
    }

    private boolean tryInsert(
            Connection connection, List<Map.Entry<String, ?>> keys, List<Map.Entry<String, ?>> sets, long token)
            throws SQLException {
        List<Map.Entry<String, ?>> columns = new ArrayList<>(keys);
        columns.addAll(sets);
        String sql = "INSERT INTO " + table + " ("
                + columns.stream().map(Map.Entry::getKey).collect(Collectors.joining(", ")) + ", " + fence.column()
                + ") VALUES (" + "?, ".repeat(columns.size()) + "?)";
        Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            int i = 1;
            for (Map.Entry<String, ?> column : columns) {
                insert.setObject(i++, column.getValue());
            }
            insert.setLong(i, token);
            insert.executeUpdate();
        } catch (SQLException e) {
            if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
                throw e;
            }
            // an integrity violation: another writer inserted the row first; read it again
            if (savepoint != null) {
                connection.rollback(savepoint);
            }
            return false;
        }
        if (savepoint != null) {
            connection.releaseSavepoint(savepoint);
        }
        return true;
    }

    private record Row(boolean present, @Nullable Object fence) {}

    /** Refuses a fence column whose type holds more than whole numbers: its values compare as text or fractions. */
    private void checkColumn(Connection connection) throws SQLException {
        if (columnChecked) {
            return;
        }
        String sql = "SELECT " + fence.column() + " FROM " + table + " WHERE 1 = 0";
        try (PreparedStatement select = connection.prepareStatement(sql);
                ResultSet rows = select.executeQuery()) {
            ResultSetMetaData column = rows.getMetaData();
            int type = column.getColumnType(1);
            boolean whole = switch (type) {
                case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> true;
                case Types.NUMERIC, Types.DECIMAL -> column.getScale(1) == 0;
                default -> false;
            };
            if (!whole) {
                throw new NotAFencingTokenException(
                        "table " + table + ", column " + fence.column(),
                        "values of SQL type " + column.getColumnTypeName(1)
                                + (type == Types.NUMERIC || type == Types.DECIMAL
                                        ? " with " + column.getScale(1) + " decimal places"
                                        : "")
                                + " (a fence column is BIGINT)");
            }
        }
        columnChecked = true;
    }

    private Row readFence(Connection connection, List<Map.Entry<String, ?>> keys) throws SQLException {
        String sql = "SELECT " + fence.column() + " FROM " + table + " WHERE " + keyCondition();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            int i = 1;
            for (Map.Entry<String, ?> k : keys) {
                select.setObject(i++, k.getValue());
            }
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return new Row(false, null);
                }
                return new Row(true, rows.getObject(1));
            }
        }
    }

    private String keyCondition() {
        return keyColumns.stream().map(c -> c + " = ?").collect(Collectors.joining(" AND "));
    }

    private List<Map.Entry<String, ?>> keyEntries(Map<String, ?> key) {
        if (!key.keySet().equals(Set.copyOf(keyColumns))) {
            throw new IllegalArgumentException(
                    "the key names " + key.keySet() + "; table '" + table + "' is keyed by " + keyColumns);
        }
        List<Map.Entry<String, ?>> entries = new ArrayList<>();
        for (String column : keyColumns) {
            entries.add(Map.entry(column, Objects.requireNonNull(key.get(column), column)));
        }
        return entries;
    }

    private List<Map.Entry<String, ?>> valueEntries(Map<String, ?> values) {
        List<Map.Entry<String, ?>> entries = new ArrayList<>();
        for (Map.Entry<String, ?> value : values.entrySet()) {
            String column = JdbcFence.identifier(value.getKey(), "column");
            if (keyColumns.contains(column) || column.equalsIgnoreCase(fence.column())) {
                throw new IllegalArgumentException("'" + column + "' is a key column or the fence: not a value to set");
            }
            entries.add(new java.util.AbstractMap.SimpleImmutableEntry<>(column, value.getValue()));
        }
        return entries;
    }

    private String resource(Map<String, ?> key) {
        return "table " + table + ", row " + key;
    }

    private LockStoreUnavailableException lostRaces(Map<String, ?> key, long token) {
        return new LockStoreUnavailableException(resource(key) + ": fenced write with token " + token
                + " lost the race to other writers " + FencingTokens.MAX_ATTEMPTS + " times in a row; retry later");
    }
}
