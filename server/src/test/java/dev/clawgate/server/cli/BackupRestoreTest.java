package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.store.UserMessage;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clawgate backup} and {@code clawgate restore} (SPEC OP-9). */
class BackupRestoreTest {
    @TempDir
    Path dir;

    Path config;
    Path dataDir;
    int port;

    private static final SessionKey KEY = new SessionKey("api", null, ChatType.DIRECT, "ann", null, "ann");

    @BeforeEach
    void writeConfig() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        dataDir = dir.resolve("state");
        config = dir.resolve("clawgate.toml");
        Files.writeString(config, "[gateway]\ndata_dir = \"state\"\nbind = \"127.0.0.1:" + port + "\"\n");
    }

    private static void write(Store store, int i) {
        InboundMessage m = InboundMessage.direct("api", "m-" + i, "ann", "msg-" + i);
        long id =
                store.inbox().record(m, KEY, null, Duration.ZERO).orElseThrow().id();
        store.transcripts().dispatchWithUserMessages(KEY, List.of(new UserMessage(id, "msg-" + i)));
    }

    private static String integrityCheck(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
                ResultSet rs = c.createStatement().executeQuery("PRAGMA integrity_check")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aBackupTakenWhileMessagesAreWrittenRestoresEveryCommittedMessage() throws Exception {
        // SPEC OP-9: online and consistent; a restore brings back every message committed before the backup began
        Path backup = dir.resolve("backup.db");
        AtomicInteger committed = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new ArrayList<>();
        try (Store store = Stores.open(null, dataDir)) {
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        write(store, i);
                        committed.set(i + 1);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> committed.get() >= 300);
            int before = committed.get();
            CliRunner.Result r = CliRunner.run("backup", backup.toString(), "--config", config.toString());
            int after = committed.get();
            stop.set(true);
            writer.join();
            assertThat(failures).isEmpty();
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("integrity check ok");
            assertThat(after).as("the writer kept writing during the backup").isGreaterThan(before);
            assertThat(Files.getPosixFilePermissions(backup)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(integrityCheck(backup)).isEqualTo("ok");

            // restored into another data dir, not running: every message committed before the backup, no gaps
            Path other = dir.resolve("other.toml");
            Files.writeString(other, "[gateway]\ndata_dir = \"restored\"\nbind = \"127.0.0.1:" + port + "\"\n");
            CliRunner.Result restored = CliRunner.run("restore", backup.toString(), "--config", other.toString());
            assertThat(restored.exit()).as(restored.err()).isZero();
            Path restoredDb = dir.resolve("restored").resolve("clawgate.db");
            assertThat(integrityCheck(restoredDb)).isEqualTo("ok");
            try (Store copy = Stores.open(null, dir.resolve("restored"))) {
                List<TranscriptEntry> messages = copy.transcripts().load(KEY, 1_000_000);
                assertThat(messages.size()).isGreaterThanOrEqualTo(before).isLessThanOrEqualTo(after);
                for (int i = 0; i < messages.size(); i++)
                    assertThat(messages.get(i).content()).isEqualTo("msg-" + i);
            }
        }
    }

    @Test
    void restoreIsRefusedWhileAGatewayHoldsTheDataDir() throws Exception {
        // SPEC OP-9: a running gateway's data is never overwritten
        try (Store store = Stores.open(null, dataDir)) {
            write(store, 0);
        }
        Path backup = dir.resolve("backup.db");
        assertThat(CliRunner.run("backup", backup.toString(), "--config", config.toString())
                        .exit())
                .isZero();
        try (Store store = Stores.open(null, dataDir)) {
            write(store, 1);
        }
        Optional<DataDirLock> gateway = DataDirLock.forGateway(dataDir);
        assertThat(gateway).isPresent();
        try (DataDirLock held = gateway.get()) {
            CliRunner.Result r = CliRunner.run("restore", backup.toString(), "--config", config.toString());
            assertThat(r.exit()).isEqualTo(Main.FAILURE);
            assertThat(r.err()).contains("not restoring", "stop it first");
        }
        try (Store store = Stores.open(null, dataDir)) {
            assertThat(store.transcripts().load(KEY, 10)).hasSize(2);
        }
        // once it has stopped, the same restore goes through and keeps the data as it was beside it
        CliRunner.Result r = CliRunner.run("restore", backup.toString(), "--config", config.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        try (Store store = Stores.open(null, dataDir)) {
            assertThat(store.transcripts().load(KEY, 10))
                    .extracting(TranscriptEntry::content)
                    .containsExactly("msg-0");
        }
        assertThat(integrityCheck(dataDir.resolve("clawgate.db.before-restore")))
                .isEqualTo("ok");
    }

    @Test
    void restoreIsRefusedWhileSomethingAnswersOnTheGatewaysPort() throws Exception {
        // SPEC OP-9: a gateway of a build without the lock file is still seen by its listening port
        try (Store store = Stores.open(null, dataDir)) {
            write(store, 0);
        }
        Path backup = dir.resolve("backup.db");
        assertThat(CliRunner.run("backup", backup.toString(), "--config", config.toString())
                        .exit())
                .isZero();
        try (ServerSocket listening = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
            CliRunner.Result r = CliRunner.run("restore", backup.toString(), "--config", config.toString());
            assertThat(r.exit()).isEqualTo(Main.FAILURE);
            assertThat(r.err()).contains("answers on 127.0.0.1:" + port);
        }
    }

    @Test
    void aDamagedFileIsNotRestored() throws Exception {
        // SPEC OP-9: the integrity check comes first; the database is left as it was
        try (Store store = Stores.open(null, dataDir)) {
            write(store, 0);
        }
        Path backup = dir.resolve("backup.db");
        assertThat(CliRunner.run("backup", backup.toString(), "--config", config.toString())
                        .exit())
                .isZero();
        byte[] bytes = Files.readAllBytes(backup);
        for (int i = 4096; i < bytes.length; i += 7) bytes[i] = (byte) 0x5a;
        Path damaged = dir.resolve("damaged.db");
        Files.write(damaged, bytes);
        Path notADatabase = dir.resolve("notes.txt");
        Files.writeString(notADatabase, "hello");
        for (Path bad : List.of(damaged, notADatabase)) {
            CliRunner.Result r = CliRunner.run("restore", bad.toString(), "--config", config.toString());
            assertThat(r.exit()).as(r.out()).isEqualTo(Main.FAILURE);
            assertThat(r.err()).contains("fails the integrity check", "nothing was changed");
        }
        try (Store store = Stores.open(null, dataDir)) {
            assertThat(store.transcripts().load(KEY, 10)).hasSize(1);
        }
    }

    @Test
    void aBackupNeverOverwritesAFileAndPostgresqlIsPointedAtPgDump() throws Exception {
        // SPEC OP-9
        try (Store store = Stores.open(null, dataDir)) {
            write(store, 0);
        }
        Path existing = dir.resolve("existing.db");
        Files.writeString(existing, "keep me");
        CliRunner.Result r = CliRunner.run("backup", existing.toString(), "--config", config.toString());
        assertThat(r.exit()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("exists");
        assertThat(Files.readString(existing)).isEqualTo("keep me");
        for (String command : List.of("backup", "restore")) {
            CliRunner.Result pg = CliRunner.run(
                    command,
                    dir.resolve("x.db").toString(),
                    "--config",
                    config.toString(),
                    "--store-url",
                    "jdbc:postgresql://127.0.0.1:1/clawgate");
            assertThat(pg.exit()).isEqualTo(Main.USAGE);
            assertThat(pg.err()).contains("PostgreSQL", "pg_dump");
        }
    }
}
