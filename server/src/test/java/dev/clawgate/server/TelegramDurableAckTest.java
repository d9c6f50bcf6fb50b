package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ack_policy = "after_durable_send"} through the real gateway (SPEC IN-3): the Telegram polling channel confirms
 * an update to the fake Bot API only once the inbox says its turn ended with its reply committed; while the model still
 * thinks, the offset stays put.
 */
class TelegramDurableAckTest extends TelegramGatewayFixture {
    private final CountDownLatch think = new CountDownLatch(1);

    @AfterEach
    void letTheModelAnswer() {
        think.countDown();
    }

    private long getUpdatesCalls() {
        return tg.calls().stream().filter(c -> c.method().equals("getUpdates")).count();
    }

    @Test
    void theOffsetPassesAnUpdateOnlyOnceItsReplyIsCommittedWithTheTurn() throws Exception {
        // SPEC IN-3 after_durable_send, IN-4 (done commits with the reply intent), OUT-5
        model.respondWith(body -> {
            try {
                if (!think.await(30, TimeUnit.SECONDS))
                    throw new IllegalStateException("the test never let the model answer");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Reply.text("done thinking");
        });
        start(config(Map.of("ack_policy", "after_durable_send")));

        tg.sendText(dm, alice, "think about it");
        long update = tg.lastUpdateId();
        await().atMost(Duration.ofSeconds(20)).until(() -> !model.chatRequests().isEmpty());
        long polls = getUpdatesCalls();
        await().atMost(Duration.ofSeconds(20)).until(() -> getUpdatesCalls() >= polls + 3);
        assertThat(tg.confirmedOffset())
                .as("confirmed while the turn still runs")
                .isLessThanOrEqualTo(update);
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DISPATCHED, 1L);

        think.countDown();

        await().atMost(Duration.ofSeconds(20)).until(() -> tg.confirmedOffset() == update + 1);
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("done thinking");
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DONE, 1L);
        assertThat(gateway.store().outbox().counts()).containsEntry(OutboxState.SENT, 1L);
        assertThat(model.chatRequests())
                .as("the redelivered update started no second run")
                .hasSize(1);
    }
}
