package dev.clawgate.server.cli;

import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of a command that reads or edits the store: a config whose data_dir is a folder this test seeds and checks.
 */
abstract class StoreCommandCase {
    @TempDir
    Path dir;
    /** {@code --config} for the command. */
    Path config;

    @BeforeEach
    final void writeConfig() throws IOException {
        config = dir.resolve("clawgate.toml");
        Files.writeString(config, "[gateway]\ndata_dir = \"state\"\n");
    }

    /** The store the command sees: the SQLite file under the config's data_dir. */
    final Store store() {
        return Stores.open(null, dir.resolve("state"));
    }
}
