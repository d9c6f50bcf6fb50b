package dev.clawgate.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The CronContract on SQLite (SPEC OP-1: the embedded store holds cron). */
class SqliteCronTest extends CronContract {
    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }
}
