package dev.clawgate.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The MemoryVectorsContract on SQLite: vectors in a BLOB column (SPEC OP-1, ME-5). */
class SqliteMemoryVectorsTest extends MemoryVectorsContract {
    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }
}
