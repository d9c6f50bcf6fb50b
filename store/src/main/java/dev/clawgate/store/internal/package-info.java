/**
 * The JDBC store's machinery: connections per dialect ({@link dev.clawgate.store.internal.SqliteDatabase},
 * {@link dev.clawgate.store.internal.PooledDatabase}), the migration runner, and the SQL of each table. Not an API:
 * other modules reach it only through {@link dev.clawgate.store.Stores}.
 */
package dev.clawgate.store.internal;
