package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The MemoryContract on PostgreSQL, whose keyword index is a tsvector (SPEC OP-2, ME-5). */
class PostgresMemoryTest extends MemoryContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("memory");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
