package dev.clawgate.store;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** The DurabilityContract on PostgreSQL: this class's own schema, emptied before each test. */
class PostgresDurabilityTest extends DurabilityContract {

    private static PostgresSchema schema;

    @BeforeAll
    static void createSchema() {
        schema = PostgresSchema.create("durability");
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
