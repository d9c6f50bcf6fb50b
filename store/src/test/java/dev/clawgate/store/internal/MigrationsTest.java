package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.store.StoreException;
import dev.clawgate.store.internal.Migrations.Migration;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hand-written migration runner on SQLite, with scripts from test resources. */
class MigrationsTest {

    private static final String ROOT = "testmigrations";
    private static final Migration PEOPLE = new Migration(1, "people");
    private static final Migration AGES = new Migration(2, "ages");
    private static final Migration BROKEN = new Migration(3, "broken");

    @TempDir
    Path dir;

    @Test
    void pendingMigrationsApplyInOrderEachRecordedOnce() {
        // SPEC OP-1: schema migrations are versioned and run at start
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("m.db"))) {
            assertThat(new Migrations(ROOT, List.of(PEOPLE)).apply(db)).isEqualTo(1);
            assertThat(new Migrations(ROOT, List.of(PEOPLE, AGES)).apply(db)).isEqualTo(2);
            assertThat(new Migrations(ROOT, List.of(PEOPLE, AGES)).apply(db)).isEqualTo(2);

            assertThat(strings(db, "SELECT name || '/' || age FROM people"))
                    .containsExactly("first; not a statement end/42");
            assertThat(strings(db, "SELECT version || ':' || description FROM schema_version ORDER BY version"))
                    .containsExactly("1:people", "2:ages");
        }
    }

    @Test
    void failingMigrationLeavesTheSchemaAtThePreviousVersion() {
        // SPEC OP-1: each migration is one transaction: all of it or none of it
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("m.db"))) {
            Migrations withBroken = new Migrations(ROOT, List.of(PEOPLE, AGES, BROKEN));

            assertThatThrownBy(() -> withBroken.apply(db))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("apply schema migration V3")
                    .hasMessageContaining("no_such_table");

            assertThat(strings(db, "SELECT MAX(version) FROM schema_version")).containsExactly("2");
            assertThat(strings(db, "SELECT name FROM sqlite_master WHERE name = 'pets'"))
                    .isEmpty();
        }
    }

    @Test
    void databaseAheadOfTheCodeIsRefusedAndLeftAlone() {
        // SPEC OP-1: a schema newer than the code is refused with a clear message
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("m.db"))) {
            new Migrations(ROOT, List.of(PEOPLE, AGES)).apply(db);

            assertThatThrownBy(() -> new Migrations(ROOT, List.of(PEOPLE)).apply(db))
                    .isInstanceOf(StoreException.class)
                    .hasMessage("the database schema is at version 2 but this Clawgate knows versions up to 1: it was"
                            + " written by a newer Clawgate; run that version or use another database");
            assertThat(strings(db, "SELECT age FROM people")).containsExactly("42");
        }
    }

    @Test
    void missingScriptIsAClearError() {
        // SPEC OP-1: a broken build says which script it lacks
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("m.db"))) {
            assertThatThrownBy(() -> new Migrations(ROOT, List.of(PEOPLE, new Migration(2, "absent"))).apply(db))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("testmigrations/sqlite/V002__absent.sql");
        }
    }

    @Test
    void numberingMustStartAtOneWithoutGaps() {
        // SPEC OP-1: versions are a sequence, so "newer than the code" is well defined
        assertThatThrownBy(() -> new Migrations(ROOT, List.of(PEOPLE, BROKEN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without gaps");
        assertThatThrownBy(() -> new Migration(0, "zero")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void scriptsSplitAtSemicolonsThatEndALine() {
        // SPEC OP-1: the runner's script format: one statement per line-ending semicolon, -- comments dropped
        String script = "-- a comment; with a semicolon\nCREATE TABLE t (\n  a TEXT DEFAULT 'x;y'\n);\n\n"
                + "INSERT INTO t VALUES ('1');\r\nSELECT 1";

        assertThat(Migrations.statements(script))
                .containsExactly("CREATE TABLE t (\na TEXT DEFAULT 'x;y'\n)", "INSERT INTO t VALUES ('1')", "SELECT 1");
    }

    /**
     * Versions whose scripts differ by design: V010 rebuilds SQLite's FTS5 index, which PostgreSQL does not have;
     * V014's cluster tables exist only on PostgreSQL (SPEC OP-2), SQLite gets the outbox column alone.
     */
    private static final java.util.Set<Integer> DIALECT_SPECIFIC = java.util.Set.of(10, 14);

    @Test
    void everyDialectShipsEveryMigrationOfTheSchema() {
        // SPEC OP-1, OP-2: the same tables on SQLite and PostgreSQL, version for version
        for (Migration m : Migrations.SCHEMA) {
            List<Integer> statementCounts = new java.util.ArrayList<>();
            for (Dialect dialect : Dialect.values()) {
                String resource = m.resource(Migrations.ROOT, dialect);
                assertThat(getClass().getClassLoader().getResource(resource))
                        .as(resource)
                        .isNotNull();
                List<String> statements =
                        Migrations.statements(new String(readAll(resource), java.nio.charset.StandardCharsets.UTF_8));
                assertThat(statements).as(resource).isNotEmpty();
                statementCounts.add(statements.size());
            }
            if (DIALECT_SPECIFIC.contains(m.version())) continue;
            assertThat(statementCounts)
                    .as("V%03d has as many statements in every dialect", m.version())
                    .containsOnly(statementCounts.getFirst());
        }
    }

    private static List<String> strings(Database db, String sql) {
        return db.read("test query", tx -> tx.list(sql, rs -> rs.getString(1)));
    }

    private byte[] readAll(String resource) {
        try (var in = getClass().getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
