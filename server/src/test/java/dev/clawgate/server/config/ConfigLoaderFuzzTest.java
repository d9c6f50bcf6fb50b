package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the config loader (SPEC OP-1 config errors) with Jazzer: any file is a config or a
 * {@link ConfigException} that says what is wrong, never another exception. Regression inputs (and any crash found)
 * live in {@code ConfigLoaderFuzzTestInputs}.
 */
class ConfigLoaderFuzzTest {
    private static final Path DIR = temp();

    private static Path temp() {
        try {
            return Files.createTempDirectory("clawgate-config-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // SPEC OP-1: the short run of every verify build
    @FuzzTest(maxDuration = "15s")
    void shortRunAnyFileIsAConfigOrAClearError(FuzzedDataProvider data) {
        anyFileIsAConfigOrAClearError(data.consumeRemainingAsString());
    }

    // SPEC OP-1: the long run of the fuzz profile
    @FuzzTest(maxDuration = "10m")
    void longRunAnyFileIsAConfigOrAClearError(FuzzedDataProvider data) {
        anyFileIsAConfigOrAClearError(data.consumeRemainingAsString());
    }

    static void anyFileIsAConfigOrAClearError(String toml) {
        try {
            assertThat(new ConfigFixture(DIR).load(toml)).isNotNull();
        } catch (ConfigException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
