package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.ClawgateConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes a clawgate.toml into a directory and loads it through the real file path. */
record ConfigFixture(Path dir) {
    Path write(String toml) {
        try {
            return Files.writeString(dir.resolve("clawgate.toml"), toml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ClawgateConfig load(String toml) {
        return load(toml, Map.of());
    }

    ClawgateConfig load(String toml, Map<String, String> env) {
        return new ConfigLoader().load(write(toml), env);
    }

    /** The message of the ConfigException loading this text throws; it must be one line. */
    String error(String toml) {
        return error(toml, Map.of());
    }

    String error(String toml, Map<String, String> env) {
        Path file = write(toml);
        var thrown = assertThatThrownBy(() -> new ConfigLoader().load(file, env))
                .isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("\n")
                .hasMessageContaining(file.toString());
        return thrown.actual().getMessage();
    }
}
