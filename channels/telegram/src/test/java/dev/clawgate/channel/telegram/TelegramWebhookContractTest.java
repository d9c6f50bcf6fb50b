package dev.clawgate.channel.telegram;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Telegram's webhook mode against the harness's webhook proofs: the secret-token header is its proof of origin (SPEC
 * CH-3, IN-5).
 */
// SPEC CH-3, IN-5
class TelegramWebhookContractTest {
    private static final String SECRET = "right_secret-123";
    private static final String HEADER = "X-Telegram-Bot-Api-Secret-Token";

    @TempDir
    Path dir;

    private final FakeTelegramServer tg = TelegramFixture.server();
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong updates = new AtomicLong(100);
    private TelegramChannel channel;

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        tg.close();
    }

    private byte[] update(String text) {
        long id = updates.incrementAndGet();
        return ("{\"update_id\":" + id + ",\"message\":{\"message_id\":" + id
                        + ",\"from\":{\"id\":111,\"is_bot\":false,\"first_name\":\"A\"},"
                        + "\"chat\":{\"id\":111,\"type\":\"private\"},\"date\":1,\"text\":\"" + text + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> postsWithTheSecretTokenAreTakenAndEveryOtherIsRefusedAndCounted() {
        TelegramAccount account = new TelegramAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                TelegramFixture.TOKEN,
                URI.create(tg.apiBase()),
                TelegramAccount.Mode.WEBHOOK,
                "https://bot.example.com/hook",
                SECRET,
                TelegramSettings.DEFAULT_PATH,
                4096,
                false,
                false,
                Duration.ofSeconds(1));
        channel = new TelegramChannel(List.of(account), dir, Duration.ofSeconds(5), Duration.ZERO);
        channel.start(inbox);
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        b -> Map.of(HEADER, SECRET),
                        b -> Map.of(HEADER, "wrong_secret-456"),
                        this::update,
                        inbox,
                        channel::rejectedRequests)
                .secretTokenOnly()
                .tests();
    }
}
