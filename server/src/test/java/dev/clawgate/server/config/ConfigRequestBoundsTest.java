package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.RequestBounds;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The HTTP bounds under [gateway] and messages.max_chars (SPEC OP-10): defaults, values, errors by name, restart. */
class ConfigRequestBoundsTest extends ConfigFileCase {
    @Test
    void absentKeysTakeTheDefaults() {
        // SPEC OP-10, defaults table: messages.max_chars = 100,000
        // a comment-only file runs on the defaults (an empty one, or one ending in a bare table header, looks cut off)
        ClawgateConfig config = fixture.load("# nothing set\n");
        assertThat(config.gateway().bounds())
                .isEqualTo(new RequestBounds(1024 * 1024, 512, Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertThat(config.inbound().maxChars()).isEqualTo(100_000);
    }

    @Test
    void everyKeySetInTheFileReachesTheConfig() {
        // SPEC OP-10
        ClawgateConfig config = fixture.load("""
                [gateway]
                max_body_bytes = 4194304
                max_connections = 64
                read_timeout = "10s"
                write_timeout = 90

                [messages]
                max_chars = 20000
                """);
        assertThat(config.gateway().bounds())
                .isEqualTo(new RequestBounds(4_194_304, 64, Duration.ofSeconds(10), Duration.ofSeconds(90)));
        assertThat(config.inbound().maxChars()).isEqualTo(20_000);
    }

    @Test
    void valuesThatWouldDisableABoundAreRejectedByName() {
        // SPEC OP-10: a bound can be raised, never switched off
        assertThat(fixture.error("[gateway]\nmax_body_bytes = 100\n"))
                .isEqualTo("'gateway.max_body_bytes' in " + file + " must be at least 1024, not 100");
        assertThat(fixture.error("[gateway]\nmax_connections = 0\n"))
                .isEqualTo("'gateway.max_connections' in " + file + " must be at least 1, not 0");
        assertThat(fixture.error("[gateway]\nread_timeout = \"0s\"\n"))
                .startsWith("'gateway.read_timeout' in " + file + " must be at least");
        assertThat(fixture.error("[gateway]\nwrite_timeout = \"soon\"\n"))
                .startsWith("'gateway.write_timeout' in " + file);
        assertThat(fixture.error("[messages]\nmax_chars = 0\n"))
                .isEqualTo("'messages.max_chars' in " + file + " must be at least 1, not 0");
        assertThat(fixture.error("[messages]\nmax_char = 10\n")).contains("max_chars");
    }

    @Test
    void theHttpBoundsNeedARestartAndMaxCharsDoesNot() {
        // SPEC OP-10, RT-3: the listening socket is built once; the inbox reads max_chars at each message
        ClawgateConfig running = fixture.load("# the defaults\n");
        ClawgateConfig edited = fixture.load("""
                [gateway]
                max_body_bytes = 2048
                max_connections = 8
                read_timeout = "5s"
                write_timeout = "5s"
                [messages]
                max_chars = 10
                """);
        assertThat(edited.restartOnlyChanges(running))
                .containsExactly(
                        "gateway.max_body_bytes",
                        "gateway.max_connections",
                        "gateway.read_timeout",
                        "gateway.write_timeout");
        ClawgateConfig applied = edited.withRestartOnlyFrom(running);
        assertThat(applied.gateway().bounds()).isEqualTo(running.gateway().bounds());
        assertThat(applied.inbound().maxChars()).isEqualTo(10);
    }
}
