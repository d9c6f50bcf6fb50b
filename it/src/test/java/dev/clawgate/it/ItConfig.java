package dev.clawgate.it;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.server.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway config the integration tests run: a fake model, followup queueing, and the webhook channel. Written as
 * TOML with only keys the loader knows today; the webhook channel's table is added programmatically until the loader
 * reads per-channel keys (see the module README).
 */
final class ItConfig {
    static final String SECRET_ENV = "CLAWGATE_WEBHOOK_SECRET";
    static final String WEBHOOK_PATH = "/webhooks/generic";

    private ItConfig() {}

    /** The parts of the config every loader version accepts. */
    static String baseToml(Path dir, String bind, String modelBaseUrl, int maxInFlight, int queueCap) {
        return """
                [gateway]
                data_dir = "%s"
                bind = "%s"

                [agent]
                provider = "fake"
                workspace = "%s"

                [providers.fake]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-it-0000"
                model = "echo"
                native_tools = true
                timeout_secs = 20

                [messages.queue]
                mode = "followup"
                cap = %d

                [dispatch]
                max_in_flight = %d
                """.formatted(
                        tomlPath(dir.resolve("data")),
                        bind,
                        tomlPath(dir.resolve("workspace")),
                        modelBaseUrl,
                        queueCap,
                        maxInFlight);
    }

    /** The webhook table as the loader will read it once it knows per-channel keys. */
    static String webhookToml(String callbackUrl) {
        return webhookToml(callbackUrl, "");
    }

    /** The webhook table with {@code extraLines} (e.g. {@code reconcile = true}) appended to it. */
    static String webhookToml(String callbackUrl, String extraLines) {
        return """

                [channels.webhook]
                path = "%s"
                secret = "${%s}"
                callback_url = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                group_policy = "open"
                require_mention = false
                # every reply names the message it answers: the audits pair them by it (SPEC OUT-3)
                reply_to_mode = "all"
                """.formatted(WEBHOOK_PATH, SECRET_ENV, callbackUrl) + extraLines;
    }

    /** A polling {@code [channels.telegram]} table open to every direct message, with {@code extraLines} appended. */
    static String telegramToml(String token, String apiBase, String extraLines) {
        return """

                [channels.telegram]
                bot_token = "%s"
                api_base = "%s"
                mode = "polling"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(token, apiBase) + extraLines;
    }

    static ClawgateConfig load(Path file, String secret) {
        return new ConfigLoader().load(file, Map.of(SECRET_ENV, secret));
    }

    /** Whether the loader reads {@code [channels.webhook]} with its own keys (then the jar runs unchanged). */
    static boolean loaderReadsWebhookTable(Path dir, String base, String callbackUrl, String secret)
            throws IOException {
        Path probe = dir.resolve("probe.toml");
        Files.writeString(probe, base + webhookToml(callbackUrl));
        try {
            ChannelSettings webhook = load(probe, secret).channels().get("webhook");
            return webhook != null
                    && secret.equals(webhook.options().get("secret"))
                    && callbackUrl.equals(webhook.options().get("callback_url"));
        } catch (ConfigException notYet) {
            return false;
        } finally {
            Files.delete(probe);
        }
    }

    /** {@code config} plus a {@code [channels.webhook]} table open to every sender. */
    static ClawgateConfig withWebhook(ClawgateConfig c, String secret, String callbackUrl) {
        AccessSettings open = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), false);
        Map<String, ChannelSettings> channels = new LinkedHashMap<>(c.channels());
        // every reply names the message it answers: the audits pair them by it (SPEC OUT-3)
        channels.put(
                "webhook",
                new ChannelSettings(
                        "webhook",
                        open,
                        Map.of(),
                        Map.of("path", WEBHOOK_PATH, "secret", secret, "callback_url", callbackUrl),
                        Map.of(),
                        new dev.clawgate.core.config.ChannelOutput(
                                dev.clawgate.core.render.ReplyToMode.ALL, null, Map.of(), null)));
        return new ClawgateConfig(
                c.gateway(),
                c.agent(),
                c.providers(),
                c.routes(),
                c.history(),
                c.tools(),
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                channels);
    }

    private static String tomlPath(Path p) {
        return p.toAbsolutePath().toString().replace("\\", "\\\\");
    }
}
