package dev.clawgate.store;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a contract test class its own PostgreSQL schema, made by the first test (so without a server each test reports
 * itself skipped), emptied before each test and dropped after the class.
 */
final class PostgresSchemaExtension implements BeforeEachCallback, AfterAllCallback {
    private final String name;
    private PostgresSchema schema;

    PostgresSchemaExtension(String name) {
        this.name = name;
    }

    PostgresSchema schema() {
        return schema;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (schema == null) schema = PostgresSchema.create(name);
        schema.reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (schema != null) schema.drop();
    }
}
