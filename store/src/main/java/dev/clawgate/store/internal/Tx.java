package dev.clawgate.store.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One unit of work on one connection. All SQL goes through prepared statements; when a statement cache is given (the
 * SQLite writer), statements are prepared once and reused.
 */
public final class Tx {

    /** Maps the current row of a result set to a value. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;
    private final Map<String, PreparedStatement> cache;

    /** @param cache statements kept across transactions, or null to close each after use */
    Tx(Connection connection, Map<String, PreparedStatement> cache) {
        this.connection = connection;
        this.cache = cache;
    }

    /** Runs an INSERT, UPDATE or DELETE and returns the number of rows it touched. */
    public int update(String sql, Object... params) throws SQLException {
        PreparedStatement ps = prepare(sql);
        try {
            bind(ps, params);
            return ps.executeUpdate();
        } finally {
            release(ps);
        }
    }

    /** Runs a query (or a statement with RETURNING) and maps every row. */
    public <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        PreparedStatement ps = prepare(sql);
        try {
            bind(ps, params);
            List<T> rows = new ArrayList<>();
            // closing the result set promptly ends SQLite's read snapshot
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
            }
            return rows;
        } finally {
            release(ps);
        }
    }

    /** The first row of a query, if any. */
    public <T> Optional<T> first(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        List<T> rows = list(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    /** Runs a statement without parameters, such as DDL from a migration script. */
    void execute(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        if (cache == null) {
            return connection.prepareStatement(sql);
        }
        PreparedStatement ps = cache.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            cache.put(sql, ps);
        }
        return ps;
    }

    private void release(PreparedStatement ps) throws SQLException {
        if (cache == null) {
            ps.close();
        } else {
            ps.clearParameters();
        }
    }

    private static void bind(PreparedStatement ps, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            int index = i + 1;
            switch (params[i]) {
                case null -> ps.setNull(index, Types.NULL);
                case String s -> ps.setString(index, s);
                case Long l -> ps.setLong(index, l);
                case Integer n -> ps.setInt(index, n);
                case byte[] b -> ps.setBytes(index, b);
                default ->
                    throw new IllegalArgumentException(
                            "cannot bind a " + params[i].getClass().getName() + " as SQL parameter " + index);
            }
        }
    }
}
