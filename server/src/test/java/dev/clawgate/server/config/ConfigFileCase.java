package dev.clawgate.server.config;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A config test that writes clawgate.toml into its own temp dir and loads it through the real loader. */
abstract class ConfigFileCase {
    /** A file that sets nothing: every key takes its default (an empty file is refused as cut off). */
    static final String NO_KEYS = "# every key takes its default\n";

    @TempDir
    Path dir;

    ConfigFixture fixture;
    /** The file as error messages name it. */
    String file;

    @BeforeEach
    final void useTempDir() {
        fixture = new ConfigFixture(dir);
        file = dir.resolve("clawgate.toml").toString();
    }
}
