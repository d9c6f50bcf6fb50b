package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ack_policy = "after_durable_send"} through the real gateway (SPEC IN-3): the Telegram
 * polling channel confirms an update to the fake Bot API only once the inbox says its turn ended
 * with its reply committed; while the model still thinks, the offset stays put.
 */
class TelegramDurableAckTest {
    private static final String TOKEN = "123456:Durable-ack_token";

    @TempDir
    Path dir;
    private final FakeOpenAiServer model = FakeOpenAiServer.start();
    private final FakeTelegramServer tg = FakeTelegramServer.start(TOKEN, "clawbot");
    private final CountDownLatch think = new CountDownLatch(1);
    private Gateway gateway;

    @AfterEach
    void stop() {
        think.countDown();
        if (gateway != null) gateway.close();
        tg.close();
        model.close();
    }

    private long getUpdatesCalls() {
        return tg.calls().stream().filter(c -> c.method().equals("getUpdates")).count();
    }

    @Test
    void theOffsetPassesAnUpdateOnlyOnceItsReplyIsCommittedWithTheTurn() throws Exception {
        // SPEC IN-3 after_durable_send, IN-4 (done commits with the reply intent), OUT-5
        TelegramUser alice = tg.user(111, "alice");
        TelegramChat dm = tg.privateChat(alice);
        model.respondWith(body -> {
            try {
                if (!think.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("the test never let the model answer");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Reply.text("done thinking");
        });
        ClawgateConfig c = GatewayHarness.config(dir, model.baseUrl(), null);
        AccessSettings open = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
        ClawgateConfig cfg = c.withChannel(new ChannelSettings("telegram", open, Map.of(),
                Map.of("bot_token", TOKEN, "api_base", tg.apiBase(), "ack_policy", "after_durable_send"), Map.of(), null));
        gateway = Gateway.start(cfg, Gateway.Options.with());

        tg.sendText(dm, alice, "think about it");
        long update = tg.lastUpdateId();
        await().atMost(Duration.ofSeconds(20)).until(() -> !model.chatRequests().isEmpty());
        long polls = getUpdatesCalls();
        await().atMost(Duration.ofSeconds(20)).until(() -> getUpdatesCalls() >= polls + 3);
        assertThat(tg.confirmedOffset()).as("confirmed while the turn still runs").isLessThanOrEqualTo(update);
        assertThat(gateway.store().inboxCounts()).containsEntry(InboxState.DISPATCHED, 1L);

        think.countDown();

        await().atMost(Duration.ofSeconds(20)).until(() -> tg.confirmedOffset() == update + 1);
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("done thinking");
        assertThat(gateway.store().inboxCounts()).containsEntry(InboxState.DONE, 1L);
        assertThat(gateway.store().outboxCounts()).containsEntry(OutboxState.SENT, 1L);
        assertThat(model.chatRequests()).as("the redelivered update started no second run").hasSize(1);
    }
}
