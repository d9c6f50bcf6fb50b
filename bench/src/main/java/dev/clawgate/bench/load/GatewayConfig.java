package dev.clawgate.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code clawgate.toml} of a load run: the fake model as the only provider, Telegram by long polling against the
 * fake Bot API, open to every sender, and nothing that paces replies per chat: no live preview (it edits at most once
 * per {@code preview_interval_ms}), no block streaming and so no {@code human_delay}, no ack reactions. Everything else
 * keeps its default, so the run goes through the same store, inbox, dispatcher, memory and outbox as a real install;
 * {@code --extra-toml} adds tables the run wants to vary.
 */
final class GatewayConfig {
    private GatewayConfig() {}

    /** Writes the config into {@code dir} and returns its path; data and workspace go below {@code dir}. */
    static Path write(
            Path dir, int httpPort, String modelBaseUrl, String telegramApiBase, String botToken, String extraToml)
            throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(
                file,
                """
                # written by dev.clawgate.bench.load.LoadDriver
                [gateway]
                data_dir = "%s"
                bind = "127.0.0.1:%d"

                [agent]
                provider = "fake"
                workspace = "%s"

                [providers.fake]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-load-0000"
                model = "echo"

                [channels.webchat]
                enabled = false

                [channels.telegram]
                bot_token = "%s"
                api_base = "%s"
                mode = "polling"
                dm_policy = "open"
                allowed_users = ["*"]
                # per-chat pacing off for the load: one final message, no rate-limited draft edits
                stream_mode = "off"
                ack_reactions = false

                [channels.telegram.block_streaming]
                enabled = false
                human_delay = "off"
                """.formatted(
                                        toml(dir.resolve("data")),
                                        httpPort,
                                        toml(dir.resolve("workspace")),
                                        modelBaseUrl,
                                        botToken,
                                        telegramApiBase)
                        + (extraToml.isBlank() ? "" : "\n# from --extra-toml\n" + extraToml + "\n"));
        return file;
    }

    private static String toml(Path p) {
        return p.toAbsolutePath().toString().replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
