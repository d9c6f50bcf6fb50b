package dev.clawgate.store;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The OutboxContract on PostgreSQL: this class's own schema, emptied before each test. The schema is
 * made by the first test, so without a server each test reports itself skipped.
 */
class PostgresOutboxTest extends OutboxContract {

    private static PostgresSchema schema;

    @BeforeEach
    void freshSchema() {
        if (schema == null) {
            schema = PostgresSchema.create("outbox");
        }
        schema.reset();
    }

    @AfterAll
    static void dropSchema() {
        if (schema != null) {
            schema.drop();
        }
    }

    @Override
    protected StoreBackend backend() {
        return schema;
    }
}
