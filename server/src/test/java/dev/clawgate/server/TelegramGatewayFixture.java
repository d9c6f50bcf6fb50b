package dev.clawgate.server;

import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link GatewayFixture} whose gateway also runs the Telegram channel, on a {@link FakeTelegramServer} that speaks
 * the Bot API on a loopback port, so the production Bot API client runs.
 */
abstract class TelegramGatewayFixture extends GatewayFixture {
    static final String TOKEN = "123456:E2E-token_xyz";
    /** Any direct chat and any group may talk to the bot; in a group it must be mentioned. */
    static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);

    FakeTelegramServer tg;
    /** Telegram user 111, and her direct chat with the bot. */
    TelegramUser alice;

    TelegramChat dm;

    @BeforeEach
    final void startTelegram() {
        tg = FakeTelegramServer.start(TOKEN, "clawbot");
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
    }

    /** The gateway goes first, so its channel never polls a closed Bot API. */
    @AfterEach
    final void stopTelegram() {
        closeGateway();
        tg.close();
    }

    /**
     * {@code [channels.telegram]} on the fake Bot API with {@link #OPEN} access; {@code extra} adds or overrides
     * options.
     */
    final ChannelSettings telegram(Map<String, String> extra, ChannelOutput output) {
        Map<String, String> options = new HashMap<>(Map.of("bot_token", TOKEN, "api_base", tg.apiBase()));
        options.putAll(extra);
        return new ChannelSettings("telegram", OPEN, Map.of(), options, Map.of(), output);
    }

    /** {@link #config()} with {@link #telegram} and {@code extra}. */
    final ClawgateConfig config(Map<String, String> extra) {
        return config().withChannel(telegram(extra, ChannelOutput.defaults()));
    }

    /** Waits until the bot has sent at least {@code n} messages to {@code chat}; all it sent there. */
    final List<SentMessage> awaitSent(TelegramChat chat, int n) {
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(chat).size() >= n);
        return tg.sentTo(chat);
    }
}
