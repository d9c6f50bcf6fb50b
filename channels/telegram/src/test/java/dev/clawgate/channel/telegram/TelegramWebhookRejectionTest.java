package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.testing.ManualClock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Webhook requests without the right secret (SPEC IN-5): refused, counted, logged at most once per interval, never
 * stored.
 */
class TelegramWebhookRejectionTest {
    private static final String SECRET = "right_secret-123";
    private static final String UPDATE =
            "{\"update_id\":7,\"message\":{\"message_id\":1,\"from\":{\"id\":111,\"is_bot\":false,"
                    + "\"first_name\":\"A\"},\"chat\":{\"id\":111,\"type\":\"private\"},\"date\":1,\"text\":\"forged"
                    + "\"}}";

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final List<InboundMessage> stored = new CopyOnWriteArrayList<>();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(TelegramWebhookReceiver.class);
    private TelegramWebhookReceiver receiver;

    @BeforeEach
    void setUp() {
        TelegramAccount account = new TelegramAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                TelegramFixture.TOKEN,
                URI.create("http://127.0.0.1:9"),
                TelegramAccount.Mode.WEBHOOK,
                "https://bot.example.com/hook",
                SECRET,
                TelegramSettings.DEFAULT_PATH,
                4096,
                false,
                false,
                Duration.ofSeconds(1));
        Bot bot = new Bot(account, new BotApi(account.apiBase(), account.botToken(), BotApi.client()));
        InboundSink sink = m -> {
            stored.add(m);
            return InboundSink.Acceptance.recorded(stored.size());
        };
        MediaStore media = new MediaStore("telegram", dir, Duration.ofDays(1), 1 << 20, clock);
        receiver = new TelegramWebhookReceiver(
                bot, new UpdateReader(bot, new MediaFetcher(bot.api, media)), () -> sink, clock);
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logs);
    }

    private int post(String secret) {
        Map<String, String> headers = new HashMap<>(Map.of("Content-Type", "application/json"));
        if (secret != null) headers.put("x-telegram-bot-api-secret-token", secret);
        return receiver.handle(
                        new WebhookRoute.Request(headers, UPDATE.getBytes(StandardCharsets.UTF_8), "203.0.113.9"))
                .status();
    }

    private List<String> warnings() {
        return logs.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aFloodOfForgedRequestsIsCountedButLoggedOncePerIntervalAndNeverStored() {
        // SPEC IN-5: rejected webhook requests (bad signature) are counted and logged, rate-limited, not stored
        assertThat(post("wrong")).isEqualTo(401);
        assertThat(post(null)).isEqualTo(401);
        assertThat(post(SECRET + "x")).isEqualTo(401);
        assertThat(receiver.rejected()).isEqualTo(3);
        assertThat(warnings())
                .singleElement()
                .asString()
                .contains("refused a webhook request from 203.0.113.9", "wrong secret", "1 refused so far");

        clock.advance(Duration.ofSeconds(9));
        post("wrong");
        assertThat(warnings()).hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        post(null);
        assertThat(warnings()).hasSize(2);
        assertThat(warnings().get(1)).contains("no secret header", "5 refused so far");

        assertThat(receiver.rejected()).isEqualTo(5);
        assertThat(stored).isEmpty();
        assertThat(logs.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .noneMatch(m -> m.contains(SECRET) || m.contains("forged"));
    }
}
