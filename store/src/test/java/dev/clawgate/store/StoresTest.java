package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a store: where the SQLite file lives, which URLs are accepted, WAL readers beside a writer, errors. */
class StoresTest {

    @TempDir
    Path dir;

    @Test
    void defaultStoreIsOneWalFileUnderTheDataDir() throws Exception {
        // SPEC OP-1: one SQLite file (WAL) under gateway.data_dir, schema migrated at start
        Path dataDir = dir.resolve("not/yet/there");
        try (Store store = Stores.open(null, dataDir)) {
            store.transcripts().appendUserMessage(StoreTestBase.ALICE, 1, "hello");
        }

        Path file = dataDir.resolve("clawgate.db");
        assertThat(file).isRegularFile();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement()) {
            assertThat(single(st, "PRAGMA journal_mode")).isEqualTo("wal");
            assertThat(single(st, "SELECT MAX(version) FROM schema_version"))
                    .isEqualTo(String.valueOf(dev.clawgate.store.internal.Migrations.SCHEMA.size()));
            assertThat(single(st, "SELECT content FROM transcript")).isEqualTo("hello");
        }
    }

    @Test
    void blankUrlAndRelativeSqliteUrlBothLiveUnderTheDataDir() {
        // SPEC OP-1: store.url may name the SQLite file; a relative path is taken under data_dir
        try (Store store = Stores.open("  ", dir)) {
            assertThat(store.healthy()).isTrue();
        }
        try (Store store = Stores.open("jdbc:sqlite:sub/other.db", dir)) {
            assertThat(store.healthy()).isTrue();
        }
        try (Store store = Stores.open("jdbc:sqlite:" + dir.resolve("abs.db").toAbsolutePath(), null)) {
            assertThat(store.healthy()).isTrue();
        }

        assertThat(dir.resolve("clawgate.db")).isRegularFile();
        assertThat(dir.resolve("sub/other.db")).isRegularFile();
        assertThat(dir.resolve("abs.db")).isRegularFile();
    }

    @Test
    void unsupportedUrlsAreRefusedWithoutEchoingThem() {
        // SPEC OP-6: an error names what is wrong and never repeats a secret from the URL
        assertThatThrownBy(() -> Stores.open("jdbc:mysql://db.example/clawgate?password=hunter2", dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:sqlite:")
                .hasMessageContaining("jdbc:postgresql:")
                .hasMessageContaining("'jdbc:mysql:'")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Stores.open("jdbc:sqlite::memory:", dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in-memory");
        assertThatThrownBy(() -> Stores.open("jdbc:sqlite:file:x?mode=memory&cache=shared", dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in-memory");
        assertThatThrownBy(() -> Stores.open(null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("dataDir");
    }

    @Test
    void readsAnswerWhileAnotherConnectionHoldsTheWriteLock() throws Exception {
        // SPEC OP-1: WAL lets readers see the last commit while a write is in progress
        Path file = dir.resolve("clawgate.db");
        try (Store store = Stores.openSqlite(file);
                Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = other.createStatement()) {
            store.transcripts().appendUserMessage(StoreTestBase.ALICE, 1, "committed");
            st.execute("BEGIN IMMEDIATE");
            st.execute("UPDATE transcript SET content = 'uncommitted'");

            assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
                assertThat(store.transcripts().load(StoreTestBase.ALICE, 5))
                        .extracting(TranscriptEntry::content)
                        .containsExactly("committed");
                assertThat(store.transcripts().sessions()).hasSize(1);
            });
            CompletableFuture<Void> write = CompletableFuture.runAsync(
                    () -> store.transcripts().appendUserMessage(StoreTestBase.ALICE, 2, "after the other writer"),
                    r -> Thread.ofVirtual().start(r));
            st.execute("ROLLBACK");

            write.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(store.transcripts().load(StoreTestBase.ALICE, 5))
                    .extracting(TranscriptEntry::content)
                    .containsExactly("committed", "after the other writer");
        }
    }

    @Test
    void unwritableLocationIsAStoreErrorNamingThePlace() throws Exception {
        // SPEC OP-4: doctor and start-up say what to fix
        Path blocker = Files.writeString(dir.resolve("a-file"), "not a folder");

        assertThatThrownBy(() -> Stores.openSqlite(blocker.resolve("clawgate.db")))
                .isInstanceOf(dev.clawgate.core.store.StoreException.class)
                .hasMessageContaining("a-file");
    }

    @Test
    void unreachablePostgresqlIsAStoreErrorWithoutThePassword() {
        // SPEC OP-2, OP-6: a cluster store that cannot be reached says so, and keeps the password to itself
        String url = "jdbc:postgresql://127.0.0.1:1/clawgate?user=gateway&password=hunter2&connectTimeout=2";

        assertThatThrownBy(() -> Stores.open(url, null))
                .isInstanceOf(dev.clawgate.core.store.StoreException.class)
                .hasMessageContaining("cannot open the PostgreSQL store")
                .hasMessageContaining("127.0.0.1:1")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void recordedMessageIsDurableWithoutAnExplicitClose() throws Exception {
        // SPEC IN-4: recorded = committed; another connection sees it at once, no close or checkpoint needed
        Path file = dir.resolve("clawgate.db");
        Store store = Stores.openSqlite(file);
        try {
            InboundMessage m = InboundMessage.direct("terminal", "t1", "me", "durable?");
            long id = store.inbox()
                    .record(m, dev.clawgate.core.model.SessionKey.of(m), "terminal|t1", Duration.ofMinutes(20))
                    .orElseThrow()
                    .id();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement st = c.createStatement()) {
                assertThat(single(st, "SELECT state FROM inbox WHERE id = " + id))
                        .isEqualTo("received");
            }
        } finally {
            store.close();
        }
    }

    private static String single(Statement st, String sql) throws Exception {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getString(1);
        }
    }
}
