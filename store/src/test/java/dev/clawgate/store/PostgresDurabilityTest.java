package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The DurabilityContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables).
 */
class PostgresDurabilityTest extends DurabilityContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("durability");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
