package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The OutboxContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables). */
class PostgresOutboxTest extends OutboxContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("outbox");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
