package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The data dir and the database files are private to the gateway's user (SPEC OP-6, OP-1): 0700 and 0600, the WAL and
 * shared-memory files SQLite makes included; loose ones are tightened with a log line. Before the fix the database was
 * 0644 in a 0755 directory.
 */
class PrivateFilesTest {
    @TempDir
    Path tmp;

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(PrivateFiles.class);

    @BeforeEach
    void watchLogs() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void stopWatching() {
        logger.detachAppender(logs);
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private static void writeSomething(Store store) {
        SessionKey key = SessionKey.of(dev.clawgate.core.model.InboundMessage.direct("telegram", "m-1", "alice", "hi"));
        store.inbox()
                .record(
                        dev.clawgate.core.model.InboundMessage.direct("telegram", "m-1", "alice", "hi"),
                        key,
                        "k-1",
                        Duration.ofMinutes(1));
    }

    @Test
    void aNewDataDirAndDatabaseArePrivateWithTheWalAndSharedMemoryFiles() throws IOException {
        // SPEC OP-6: created private, also what SQLite creates itself
        Path data = tmp.resolve("state");
        try (Store store = Stores.open(null, data)) {
            writeSomething(store);
            Path db = data.resolve(Stores.DEFAULT_FILE_NAME);
            assertThat(mode(data)).isEqualTo("rwx------");
            assertThat(mode(db)).isEqualTo("rw-------");
            assertThat(data.resolve("clawgate.db-wal")).exists();
            assertThat(mode(data.resolve("clawgate.db-wal"))).isEqualTo("rw-------");
            assertThat(mode(data.resolve("clawgate.db-shm"))).isEqualTo("rw-------");
        }
        assertThat(logs.list).isEmpty();
    }

    @Test
    void existingFilesOpenToOthersAreTightenedAtStartWithALogLine() throws IOException {
        // SPEC OP-6: what an older version left world-readable is made private when the store opens
        Path data = tmp.resolve("state");
        try (Store store = Stores.open(null, data)) {
            writeSomething(store);
        }
        Path db = data.resolve(Stores.DEFAULT_FILE_NAME);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r--r--"));
        Path wal = data.resolve("clawgate.db-wal");
        if (!Files.exists(wal)) Files.createFile(wal);
        Files.setPosixFilePermissions(wal, PosixFilePermissions.fromString("rw-rw-rw-"));

        try (Store store = Stores.open(null, data)) {
            assertThat(store.healthy()).isTrue();
            assertThat(mode(data)).isEqualTo("rwx------");
            assertThat(mode(db)).isEqualTo("rw-------");
            assertThat(mode(wal)).isEqualTo("rw-------");
        }
        List<String> warnings = logs.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
        assertThat(warnings)
                .hasSize(3)
                .anySatisfy(w -> assertThat(w).contains(db.toString(), "rw-r--r--", "rw-------"));
    }

    @Test
    void aMissingParentOfAnExplicitSqliteFileIsCreatedPrivateButAnExistingOneIsLeftAlone() throws IOException {
        // SPEC OP-6: folders the gateway creates are private; a folder it did not create is not its to change
        Path shared = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Store store = Stores.openSqlite(shared.resolve("own/x.db"))) {
            writeSomething(store);
        }
        assertThat(mode(shared)).isEqualTo("rwxr-xr-x");
        assertThat(mode(shared.resolve("own"))).isEqualTo("rwx------");
        assertThat(mode(shared.resolve("own/x.db"))).isEqualTo("rw-------");
    }
}
