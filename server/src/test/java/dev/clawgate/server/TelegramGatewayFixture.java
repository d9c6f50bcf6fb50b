package dev.clawgate.server;

import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gateway with its Telegram channel on a {@link FakeTelegramServer} and its model on a
 * {@link FakeOpenAiServer}, both on loopback ports, so the production Bot API and OpenAI clients run.
 * A test extends this, starts the gateway with the config it needs, and everything is closed after it.
 */
abstract class TelegramGatewayFixture {
    static final String TOKEN = "123456:E2E-token_xyz";
    /** Any direct chat and any group may talk to the bot; in a group it must be mentioned. */
    static final AccessSettings OPEN = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);

    @TempDir
    Path dir;
    FakeOpenAiServer model;
    FakeTelegramServer tg;
    /** Telegram user 111, and her direct chat with the bot. */
    TelegramUser alice;
    TelegramChat dm;
    Gateway gateway;

    @BeforeEach
    final void startFakes() {
        model = FakeOpenAiServer.start();
        tg = FakeTelegramServer.start(TOKEN, "clawbot");
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
    }

    @AfterEach
    final void stopAll() {
        if (gateway != null) gateway.close();
        tg.close();
        model.close();
    }

    /** {@code [channels.telegram]} on the fake Bot API with {@link #OPEN} access; {@code extra} adds or overrides options. */
    final ChannelSettings telegram(Map<String, String> extra, ChannelOutput output) {
        Map<String, String> options = new HashMap<>(Map.of("bot_token", TOKEN, "api_base", tg.apiBase()));
        options.putAll(extra);
        return new ChannelSettings("telegram", OPEN, Map.of(), options, Map.of(), output);
    }

    /** The fake model as the only provider, the workspace and data in {@link #dir}, and {@link #telegram} with {@code extra}. */
    final ClawgateConfig config(Map<String, String> extra) {
        return GatewayHarness.config(dir, model.baseUrl(), null).withChannel(telegram(extra, ChannelOutput.defaults()));
    }

    /** Starts the gateway without its HTTP server; it is closed after the test. */
    final Gateway start(ClawgateConfig config) throws Exception {
        return start(config, Gateway.Options.with());
    }

    final Gateway start(ClawgateConfig config, Gateway.Options options) throws Exception {
        gateway = Gateway.start(config, options);
        return gateway;
    }

    /** Waits until the bot has sent at least {@code n} messages to {@code chat}; all it sent there. */
    final List<SentMessage> awaitSent(TelegramChat chat, int n) {
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(chat).size() >= n);
        return tg.sentTo(chat);
    }
}
