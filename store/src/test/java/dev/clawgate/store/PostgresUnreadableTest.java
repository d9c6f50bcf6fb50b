package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The UnreadableContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster holds the same tables). */
class PostgresUnreadableTest extends UnreadableContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("unreadable");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
