package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clawgate run} refusing to start (SPEC OP-3, OP-4). */
class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void aPublicBindWithoutATokenIsAConfigErrorExitingTwoWithOneLine() throws Exception {
        // SPEC OP-3, OP-4: the README's exit codes: 2 for a config error (it was 1), one line saying what to set
        for (String bind : new String[] {"0.0.0.0:0", "[::]:0"}) {
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(config, "[gateway]\nbind = \"" + bind + "\"\ndata_dir = \"data\"\n");
            CliRunner.Result r = CliRunner.run("run", "--config", config.toString());
            assertThat(r.exit()).as(bind).isEqualTo(Main.USAGE);
            assertThat(r.err().lines())
                    .as(bind)
                    .singleElement()
                    .asString()
                    .startsWith("clawgate: refusing to listen on " + bind)
                    .contains("gateway.auth_token");
            assertThat(r.out()).doesNotContain("Clawgate is running");
        }
    }

    @Test
    void theBannerNamesTheChatPageAndTheApiAtTheBoundPortAndLeavesOutADisabledChat() throws Exception {
        // issue 14, SPEC CH-2, CH-10: run says where the web chat is, not only the API
        Path on = Files.writeString(dir.resolve("on.toml"), "[gateway]\nbind = \"127.0.0.1:0\"\n");
        var cfg = new dev.clawgate.server.config.ConfigLoader().load(on, java.util.Map.of());
        assertThat(RunCommand.banner(cfg, 40123))
                .contains(
                        "web chat at http://127.0.0.1:40123/chat",
                        "OpenAI-compatible API at http://127.0.0.1:40123/v1");
        Path off = Files.writeString(dir.resolve("off.toml"), "[channels.webchat]\nenabled = false\n");
        var noChat = new dev.clawgate.server.config.ConfigLoader().load(off, java.util.Map.of());
        assertThat(RunCommand.banner(noChat, 8787)).doesNotContain("/chat").contains("http://127.0.0.1:8787/v1");
    }
}
