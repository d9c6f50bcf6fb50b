package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The MemoryVectorsContract on PostgreSQL: vectors in a bytea column (SPEC OP-2, ME-5). */
class PostgresMemoryVectorsTest extends MemoryVectorsContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("memvec");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
