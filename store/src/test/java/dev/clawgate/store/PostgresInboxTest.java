package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The InboxContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables). */
class PostgresInboxTest extends InboxContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("inbox");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
