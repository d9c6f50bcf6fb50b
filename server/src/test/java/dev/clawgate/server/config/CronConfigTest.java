package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.CronSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code [cron]} as the loader reads it (SPEC AG-5 cron tools, OUT-12 max_age). */
class CronConfigTest {
    @TempDir
    Path dir;

    private ClawgateConfig load(String toml) throws Exception {
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, toml);
        return new ConfigLoader().load(file, Map.of());
    }

    @Test
    void cronKeysAreReadAndDefaultsApplyWithoutThem() throws Exception {
        // SPEC AG-5
        assertThat(load(ConfigFileCase.NO_KEYS).cron()).isEqualTo(CronSettings.defaults());
        CronSettings c =
                load("[cron]\nenabled = false\nmax_jobs_per_session = 3\nmin_interval = \"15m\"\nmax_age = \"2h\"\n")
                        .cron();
        assertThat(c).isEqualTo(new CronSettings(false, 3, Duration.ofMinutes(15), Duration.ofHours(2)));
    }

    @Test
    void anIntervalUnderAMinuteOrAnUnknownKeyIsRefusedNamingTheKey() {
        // SPEC AG-5: minimum interval; unknown keys are errors
        assertThatThrownBy(() -> load("[cron]\nmin_interval = \"30s\"\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cron.min_interval");
        assertThatThrownBy(() -> load("[cron]\nmax_jobs = 3\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cron.max_jobs");
    }
}
