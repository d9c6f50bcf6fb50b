package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The TurnContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables). */
class PostgresTurnTest extends TurnContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("turns");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
