package dev.clawgate.store.internal;

/** What differs between the two SQL databases; everything else is written once in portable SQL. */
public enum Dialect {
    SQLITE("sqlite", "DELETE FROM dedupe WHERE key IN (SELECT key FROM dedupe WHERE seen_at <= ? LIMIT ?)"),
    // SKIP LOCKED: nodes pruning at the same moment share the work instead of waiting on each other
    POSTGRESQL(
            "postgresql",
            "DELETE FROM dedupe WHERE key IN (SELECT key FROM dedupe WHERE seen_at <= ? LIMIT ? FOR UPDATE SKIP "
                    + "LOCKED)");

    /** An arbitrary constant: the advisory lock that serialises schema migrations across nodes. */
    private static final long MIGRATION_LOCK_KEY = 0x636c_6177_6761_7465L;

    private final String folder;
    private final String pruneDedupeSql;

    Dialect(String folder, String pruneDedupeSql) {
        this.folder = folder;
        this.pruneDedupeSql = pruneDedupeSql;
    }

    /** The folder under a migrations root that holds this dialect's scripts. */
    public String folder() {
        return folder;
    }

    /** Deletes up to the second parameter's count of dedupe rows seen at or before the first parameter. */
    public String pruneDedupeSql() {
        return pruneDedupeSql;
    }

    /** Takes a lock, released at commit, that keeps two nodes from migrating one database at once. */
    void lockForMigration(Tx tx) throws java.sql.SQLException {
        if (this == POSTGRESQL) {
            tx.list("SELECT pg_advisory_xact_lock(?)", rs -> 0, MIGRATION_LOCK_KEY);
        }
        // SQLite: the writer's BEGIN IMMEDIATE already holds the database's single write lock
    }
}
