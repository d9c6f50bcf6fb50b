package dev.clawgate.store;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** What every store contract test needs: a backend, a clock, fixtures and raw row queries. */
abstract class StoreTestBase {

    static final Duration TTL = Duration.ofMinutes(20);
    static final SessionKey ALICE = new SessionKey("telegram", "default", ChatType.DIRECT, "chat-1", null, "alice");
    static final SessionKey BOB = new SessionKey("telegram", "default", ChatType.DIRECT, "chat-2", null, "bob");

    protected final MutableClock clock = new MutableClock(Instant.parse("2025-03-01T10:00:00Z"));
    // concurrent: some tests open stores from several threads at once
    private final List<Store> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

    protected abstract StoreBackend backend();

    /** Opens the backend's store; closed after the test. */
    protected Store open() {
        Store store = backend().open(clock);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(Store::close);
        opened.clear();
    }

    InboundMessage message(String id, String text) {
        return new InboundMessage(
                id,
                "telegram",
                "default",
                "alice",
                "Alice",
                "chat-1",
                null,
                null,
                ChatType.DIRECT,
                true,
                clock.instant(),
                text,
                List.of(),
                "{\"update_id\":" + Math.abs(String.valueOf(id).hashCode()) + "}");
    }

    static String keyOf(String messageId) {
        return "telegram|default|chat-1|alice|" + messageId;
    }

    /** Records message {@code id} for Alice under its dedupe key and returns the inbox id. */
    long record(Store store, String id) {
        return store.inbox()
                .record(message(id, "hello " + id), ALICE, keyOf(id), TTL)
                .orElseThrow()
                .id();
    }

    /** Every row of a query, each as its columns' values. */
    protected List<List<Object>> rows(String sql, Object... params) {
        try (Connection c = backend().raw();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= columns; i++) {
                        Object value = rs.getObject(i);
                        // SQLite answers int or long by size, PostgreSQL by column type: compare as long
                        row.add(value instanceof Integer n ? Long.valueOf(n) : value);
                    }
                    rows.add(row);
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("test query failed: " + sql, e);
        }
    }

    /** The single value of a one-row, one-column query. */
    protected Object value(String sql, Object... params) {
        List<List<Object>> rows = rows(sql, params);
        if (rows.size() != 1) {
            throw new IllegalStateException("expected one row from " + sql + " but got " + rows.size());
        }
        return rows.getFirst().getFirst();
    }

    protected long count(String sql, Object... params) {
        return ((Number) value(sql, params)).longValue();
    }
}
