package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A started gateway keeps its data private to its user (SPEC OP-6, OP-1); before the fix, 0644 files in a 0755 dir. */
class DataDirPrivacyTest extends GatewayFixture {

    @Test
    void theDataDirAndEveryDatabaseFileArePrivateAfterATurn() throws Exception {
        // SPEC OP-6: what the gateway and SQLite create, WAL and shared memory included
        model.enqueue(Reply.text("hi"));
        int port = serve(config());
        assertThat(GatewayHarness.chat(port, "s", "hello", null).content()).isEqualTo("hi");
        Path data = dir.resolve("data");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data)))
                .isEqualTo("rwx------");
        try (var files = Files.list(data)) {
            List<Path> dbFiles = files.filter(p -> p.getFileName().toString().startsWith("clawgate.db"))
                    .toList();
            assertThat(dbFiles).extracting(p -> p.getFileName().toString()).contains("clawgate.db", "clawgate.db-wal");
            for (Path p : dbFiles) {
                String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                assertThat(mode).as(p.toString()).isEqualTo("rw-------");
            }
        }
    }
}
