package dev.clawgate.store;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** The InboxContract on PostgreSQL: this class's own schema, emptied before each test. */
class PostgresInboxTest extends InboxContract {

    private static PostgresSchema schema;

    @BeforeAll
    static void createSchema() {
        schema = PostgresSchema.create("inbox");
    }

    @BeforeEach
    void emptySchema() {
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
