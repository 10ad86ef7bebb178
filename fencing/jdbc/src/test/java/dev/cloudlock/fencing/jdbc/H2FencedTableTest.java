package dev.cloudlock.fencing.jdbc;

import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/** On H2, in memory. */
class H2FencedTableTest extends JdbcFencedTableCases {

    private static final JdbcDataSource H2 = new JdbcDataSource();

    static {
        H2.setURL("jdbc:h2:mem:fencing;DB_CLOSE_DELAY=-1");
    }

    @Override
    DataSource dataSource() {
        return H2;
    }
}
