package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The PairingContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables). */
class PostgresPairingTest extends PairingContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("pairing");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
