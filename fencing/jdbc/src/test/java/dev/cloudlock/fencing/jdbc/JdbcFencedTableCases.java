package dev.cloudlock.fencing.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Fenced writes on a real database, the lock taken by two real providers (on the in-memory store: this module has no
 * lock store of its own; the token is the same whatever store handed it out).
 */
abstract class JdbcFencedTableCases extends StaleHolderCases {

    private static final Map<String, String> KEY = Map.of("id", "nightly");

    private final InMemoryLockStore locks = new InMemoryLockStore();
    private final JdbcFencedTable reports = JdbcFencedTable.of("reports", JdbcFence.inColumn("fence"), "id");

    abstract DataSource dataSource();

    @BeforeEach
    void createTable() throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS reports");
            s.execute("CREATE TABLE reports (id VARCHAR(40) PRIMARY KEY, body VARCHAR(200), fence BIGINT)");
        }
    }

    private final StaleHolderScenario.Sink upsert = new StaleHolderScenario.Sink() {
        @Override
        public void write(long token, String value) throws SQLException {
            try (Connection c = dataSource().getConnection()) {
                reports.upsert(c, KEY, Map.of("body", value), token);
            }
        }

        @Override
        public void writeUnfenced(String value) throws SQLException {
            try (Connection c = dataSource().getConnection();
                    PreparedStatement update = c.prepareStatement("UPDATE reports SET body = ? WHERE id = ?")) {
                update.setString(1, value);
                update.setString(2, KEY.get("id"));
                if (update.executeUpdate() == 0) {
                    try (PreparedStatement insert =
                            c.prepareStatement("INSERT INTO reports (id, body) VALUES (?, ?)")) {
                        insert.setString(1, KEY.get("id"));
                        insert.setString(2, value);
                        insert.executeUpdate();
                    }
                }
            }
        }

        @Override
        public @Nullable String read() throws SQLException {
            return body();
        }
    };

    private @Nullable String body() throws SQLException {
        try (Connection c = dataSource().getConnection();
                PreparedStatement select = c.prepareStatement("SELECT body FROM reports WHERE id = ?")) {
            select.setString(1, KEY.get("id"));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    @Test
    void anUpdateOfAnAbsentRowWritesNothingAndSaysSo() throws SQLException {
        try (Connection c = dataSource().getConnection()) {
            assertThat(reports.update(c, KEY, Map.of("body", "x"), 1)).isFalse();
        }
        assertThat(body()).isNull();
    }

    @Test
    void aRefusedWriteInsideTheCallersTransactionLeavesTheTransactionUsable() throws SQLException {
        try (Connection c = dataSource().getConnection()) {
            reports.upsert(c, KEY, Map.of("body", "B"), 8);
            c.setAutoCommit(false);
            assertThatThrownBy(() -> reports.upsert(c, KEY, Map.of("body", "A"), 7))
                    .isInstanceOf(StaleFencingTokenException.class)
                    .hasMessageContaining("table reports, row {id=nightly}");
            reports.upsert(c, Map.of("id", "other"), Map.of("body", "next"), 7);
            c.commit();
        }
        assertThat(body()).isEqualTo("B");
    }

    @Test
    void theWhereClauseHelperFencesAStatementOfOnesOwn() throws SQLException {
        JdbcFence fence = JdbcFence.inColumn("fence");
        try (Connection c = dataSource().getConnection()) {
            reports.upsert(c, KEY, Map.of("body", "B"), 8);
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE reports SET body = ?, " + fence.assignment() + " WHERE id = ? AND " + fence.condition())) {
                update.setString(1, "A");
                update.setLong(2, 7);
                update.setString(3, "nightly");
                update.setLong(4, 7);
                assertThat(update.executeUpdate())
                        .as("a stale token matches no row")
                        .isZero();
                update.setLong(2, 8);
                update.setLong(4, 8);
                assertThat(update.executeUpdate()).as("an equal token").isOne();
            }
        }
    }

    @Test
    void aNameThatIsNoPlainIdentifierIsRefused() {
        assertThatThrownBy(() -> JdbcFence.inColumn("fence; DROP TABLE reports"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JdbcFencedTable.of("reports r", JdbcFence.inColumn("fence"), "id"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return new CloudLockProvider(locks, lockedBy);
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return upsert;
    }

    /**
     * Fence columns another schema made: text and a fraction, refused by their type before any write, and a whole
     * number beyond the token's range in a column that could hold a token.
     */
    @Nested
    class HostileFences extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) throws SQLException {
            String text = fence.text();
            String type = switch (fence) {
                case TOKEN_5, TOKEN_12 -> "BIGINT";
                case TEXT -> "VARCHAR(40)";
                case FRACTION -> "DECIMAL(10, 1)";
                case BEYOND_RANGE -> "DECIMAL(30, 0)";
            };
            try (Connection c = dataSource().getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS reports");
                s.execute("CREATE TABLE reports (id VARCHAR(40) PRIMARY KEY, body VARCHAR(200), fence " + type + ")");
                try (PreparedStatement insert =
                        c.prepareStatement("INSERT INTO reports (id, body, fence) VALUES (?, 'planted', ?)")) {
                    insert.setString(1, KEY.get("id"));
                    insert.setObject(2, fence == Planted.TEXT ? text : new java.math.BigDecimal(text));
                    insert.executeUpdate();
                }
            }
            return upsert;
        }
    }
}
