package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.store.Stores;
import dev.clawgate.store.internal.Migrations;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upgrades (SPEC OP-1, OP-9): a database of every earlier schema version (a kept fixture, {@link SchemaFixtures})
 * opens, migrates to the current version and keeps its conversation and memory; a database of a newer version is
 * refused with a message that says so, by the store, by a command and by a restore.
 */
class SchemaUpgradeTest {
    private static final SessionKey ANN = new SessionKey("telegram", "main", ChatType.DIRECT, "42", null, "ann");

    @TempDir
    Path dir;

    static IntStream earlierVersions() {
        return IntStream.range(1, Migrations.schema().latestVersion());
    }

    private Path fixture(int version) throws Exception {
        String name = "/dev/clawgate/server/schema/v%03d.db".formatted(version);
        Path copy = dir.resolve("data").resolve("clawgate.db");
        Files.createDirectories(copy.getParent());
        try (InputStream in = SchemaUpgradeTest.class.getResourceAsStream(name)) {
            assertThat(in).as("fixture %s (write it with SchemaFixtures)", name).isNotNull();
            Files.copy(in, copy);
        }
        return copy;
    }

    private static int schemaVersion(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
                ResultSet rs = c.createStatement().executeQuery("SELECT MAX(version) FROM schema_version")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @ParameterizedTest(name = "schema version {0}")
    @MethodSource("earlierVersions")
    void aDatabaseOfAnEarlierVersionMigratesAndKeepsItsData(int version) throws Exception {
        // SPEC OP-1, OP-9: every earlier schema migrates forward
        Path db = fixture(version);
        assertThat(schemaVersion(db)).isEqualTo(version);
        try (Store store = Stores.openSqlite(db)) {
            List<TranscriptEntry> messages = store.transcripts().load(ANN, 10);
            assertThat(messages)
                    .extracting(TranscriptEntry::content)
                    .containsExactly("hello from schema " + version, "hi ann (schema " + version + ")");
            if (version >= 6) {
                List<Recalled> found = store.memory().recall("green tea", List.of(MemoryScope.global()), 5);
                assertThat(found).extracting(r -> r.entry().key()).containsExactly(SchemaFixtures.MEMORY_KEY);
            }
            // and it is written to as usual afterwards
            store.memory()
                    .store(MemoryScope.global(), "after-upgrade", "Upgraded from schema " + version + ".", "core");
            assertThat(store.memory().recall("upgraded", List.of(MemoryScope.global()), 5))
                    .hasSize(1);
        }
        assertThat(schemaVersion(db)).isEqualTo(Migrations.schema().latestVersion());
    }

    @Test
    void everyEarlierVersionHasAFixture() {
        // SPEC OP-9: a new migration comes with the fixture of the version before it
        earlierVersions()
                .forEach(v -> assertThat(SchemaUpgradeTest.class.getResource(
                                "/dev/clawgate/server/schema/v%03d.db".formatted(v)))
                        .as("fixture of schema version %d", v)
                        .isNotNull());
    }

    @Test
    void aDatabaseOfANewerVersionIsRefusedWithAClearMessage() throws Exception {
        // SPEC OP-9: an older binary never guesses at a newer schema
        Path data = dir.resolve("data");
        Path db = data.resolve("clawgate.db");
        try (Store store = Stores.open(null, data)) {
            store.memory().store(MemoryScope.global(), "k", "v", "core");
        }
        int newer = Migrations.schema().latestVersion() + 1;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
            c.createStatement()
                    .execute("INSERT INTO schema_version (version, description, applied_at) VALUES (" + newer
                            + ", 'from_the_future', 0)");
        }
        assertThatThrownBy(() -> Stores.openSqlite(db))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("schema is at version " + newer)
                .hasMessageContaining("written by a newer Clawgate");

        Path config = dir.resolve("clawgate.toml");
        Files.writeString(config, "[gateway]\ndata_dir = \"data\"\nbind = \"127.0.0.1:1\"\n");
        CliRunner.Result sessions = CliRunner.run("sessions", "--config", config.toString());
        assertThat(sessions.exit()).isEqualTo(Main.FAILURE);
        assertThat(sessions.err().strip().lines()).hasSize(1);
        assertThat(sessions.err()).contains("written by a newer Clawgate").doesNotContain("\tat ");

        // a backup of it cannot be restored by this version either
        Path other = dir.resolve("other.toml");
        Files.writeString(other, "[gateway]\ndata_dir = \"restored\"\nbind = \"127.0.0.1:1\"\n");
        CliRunner.Result restore = CliRunner.run("restore", db.toString(), "--config", other.toString());
        assertThat(restore.exit()).isEqualTo(Main.FAILURE);
        assertThat(restore.err()).contains("schema version " + newer, "restore it with the newer Clawgate");
    }
}
