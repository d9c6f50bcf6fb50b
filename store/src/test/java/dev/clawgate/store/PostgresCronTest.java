package dev.clawgate.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The CronContract on PostgreSQL, in a schema of its own (SPEC OP-2: the cluster store holds the same tables). */
class PostgresCronTest extends CronContract {
    @RegisterExtension
    static final PostgresSchemaExtension PG = new PostgresSchemaExtension("cron");

    @Override
    protected StoreBackend backend() {
        return PG.schema();
    }
}
