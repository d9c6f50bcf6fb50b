package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TranscriptContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables).
 */
class PostgresTranscriptTest extends TranscriptContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("transcript");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
