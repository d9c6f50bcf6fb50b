package dev.clawgate.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The OutboxContract on SQLite: a fresh file per test (SPEC OP-1: the embedded default store). */
class SqliteOutboxTest extends OutboxContract {

    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }
}
