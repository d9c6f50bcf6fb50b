package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ToolSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A config file cut off while it was written is refused, never loaded with defaults in place of what was cut (SPEC
 * OP-4, RT-3). The parser refuses a cut inside a value; these are the cuts that leave valid TOML. Before the fix each
 * of them loaded, and a cut [tools] table restored the default allowlist.
 */
// SPEC OP-4, RT-3
class ConfigCutOffTest extends ConfigFileCase {
    private static final String FULL = """
            [gateway]
            bind = "127.0.0.1:8787"

            [tools]
            shell_allowlist = ["ls", "cat"]
            shell_timeout_secs = 45
            """;

    @Test
    void aToolsTableCutRightAfterItsHeaderIsRefusedNotDefaulted() {
        // the probe: the allowlist came back as the default one
        String cut = FULL.substring(0, FULL.indexOf("[tools]") + "[tools]\n".length());
        assertThat(fixture.error(cut))
                .contains("ends with the table header [tools] and no keys")
                .contains("cut off");
        assertThat(fixture.error(cut.strip())).contains("[tools]");
        assertThat(fixture.load(FULL).tools().shellAllowlist()).containsExactly("ls", "cat");
        assertThat(ToolSettings.defaults().shellAllowlist()).isNotEqualTo(List.of("ls", "cat"));
    }

    @Test
    void everyCutOfAFileIsRefusedOrLoadsWhatItHoldsNeverADefaultInPlaceOfACutValue() {
        // a property over every cut: a cut that loads must be a file whose last line is whole
        for (int at = 0; at < FULL.length(); at++) {
            String cut = FULL.substring(0, at);
            java.nio.file.Path file = fixture.write(cut);
            dev.clawgate.core.config.ClawgateConfig loaded;
            try {
                loaded = new ConfigLoader().load(file, java.util.Map.of());
            } catch (ConfigException refused) {
                assertThat(refused.getMessage()).as("cut at %d", at).doesNotContain("\n");
                continue;
            }
            // what loaded is a prefix made of whole lines, so no value in it was shortened
            boolean wholeLine = cut.endsWith("\n") || cut.endsWith("\"") || cut.endsWith("]");
            assertThat(wholeLine).as("cut at %d: %s", at, cut).isTrue();
            if (loaded.tools().shellTimeoutSecs() != ToolSettings.defaults().shellTimeoutSecs()) {
                assertThat(loaded.tools().shellTimeoutSecs())
                        .as("cut at %d", at)
                        .isEqualTo(45);
            }
        }
    }

    @Test
    void anEmptyFileIsRefusedAndACommentOnlyFileGivesTheDefaults() {
        // a save that wrote nothing yet must not put every default in force (data_dir, bind, tools)
        assertThat(fixture.error("")).contains("is empty").contains("delete it to run on the defaults");
        assertThat(fixture.error("  \n\n")).contains("is empty");
        assertThat(fixture.load(NO_KEYS).tools()).isEqualTo(ToolSettings.defaults());
    }

    @Test
    void aLastValueACutCouldHaveShortenedNeedsALineBreakAfterIt() {
        // 30 cut to 3, and a triple quote cut to "" are valid TOML: without a final line break they are refused
        assertThat(fixture.error("[tools]\nshell_timeout_secs = 3"))
                .contains("does not end with a line break")
                .contains("shell_timeout_secs")
                .contains("line 2");
        assertThat(fixture.error("[agent]\nmodel = \"\"")).contains("does not end with a line break");
        assertThat(fixture.load("[tools]\nshell_timeout_secs = 3\n").tools().shellTimeoutSecs())
                .isEqualTo(3);
        // a value that ends in a closing quote, bracket or a comment was not shortened by the cut
        assertThat(fixture.load("[tools]\nshell_allowlist = [\"ls\"]").tools().shellAllowlist())
                .containsExactly("ls");
        assertThat(fixture.load("[tools]\nshell_timeout_secs = 30 # seconds")
                        .tools()
                        .shellTimeoutSecs())
                .isEqualTo(30);
    }

    @Test
    void anEmptyNamedTableAtTheEndStillMeansSomething() {
        // [providers.local] or [channels.telegram] alone configures that entry: it is not the mark of a cut
        assertThat(fixture.load("[providers.local]\n").providers()).containsKey("local");
        assertThat(CutOffCheck.segments("providers.\"my.model\" . x")).containsExactly("providers", "my.model", "x");
    }
}
