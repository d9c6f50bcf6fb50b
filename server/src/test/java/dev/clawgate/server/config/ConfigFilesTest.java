package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigFilesTest {
    @Test
    void theCommandLineOptionWinsOverTheEnvironment() {
        // SPEC OP-4
        assertThat(ConfigFiles.locate("/etc/cg.toml", Map.of("CLAWGATE_CONFIG", "/env.toml")))
                .isEqualTo(new ConfigLocation(Path.of("/etc/cg.toml"), true));
    }

    @Test
    void theEnvironmentVariableIsUsedWithoutAnOption() {
        // SPEC OP-4
        assertThat(ConfigFiles.resolvePath(null, Map.of("CLAWGATE_CONFIG", "/env.toml")))
                .isEqualTo(Path.of("/env.toml"));
        assertThat(ConfigFiles.locate(null, Map.of("CLAWGATE_CONFIG", "/env.toml"))
                        .explicit())
                .isTrue();
    }

    @Test
    void withNeitherTheFileInTheWorkingDirectoryIsUsedAndMayBeMissing() {
        // SPEC OP-4, CH-1 (zero-config start)
        assertThat(ConfigFiles.locate(null, Map.of())).isEqualTo(new ConfigLocation(Path.of("clawgate.toml"), false));
        assertThat(ConfigFiles.locate(" ", Map.of("CLAWGATE_CONFIG", "")))
                .isEqualTo(new ConfigLocation(Path.of("clawgate.toml"), false));
    }
}
