package dev.clawgate.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The TurnContract on SQLite: a fresh file per test (SPEC OP-1: the embedded default store). */
class SqliteTurnTest extends TurnContract {

    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }
}
