package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The supervisor owns the channel listeners (SPEC CH-0): one can stop and start again while input keeps coming. */
class ChannelSupervisorTest extends TelegramGatewayFixture {
    private static final int SENDERS = 40;

    @Test
    void stoppingAndRestartingTelegramPollingMidStreamLosesAndRepeatsNothing() throws Exception {
        // SPEC CH-0 (listener lifecycle), IN-4 (nothing confirmed before it is recorded), IN-1 (dedupe), CH-3 (offset
        // acks)
        start(config(Map.of()), GatewayOptions.with());
        List<TelegramChat> chats = new ArrayList<>();
        for (int i = 0; i < SENDERS; i++) {
            TelegramUser u = tg.user(1000 + i, "user" + i);
            chats.add(tg.privateChat(u));
        }
        for (int i = 0; i < SENDERS; i++) {
            tg.sendText(chats.get(i), tg.user(1000 + i, "user" + i), "message number " + i);
            if (i == SENDERS / 4) {
                // mid-stream: some updates are recorded, some confirmed, some only fetched
                gateway.channels().stop("telegram");
                assertThat(gateway.channels().running("telegram")).isFalse();
                assertThat(gateway.readiness().parts()).containsEntry("channel.telegram", "stopped");
            }
            if (i == SENDERS / 2) gateway.channels().start("telegram");
            if (i == 3 * SENDERS / 4) gateway.channels().restart("telegram");
        }

        await().atMost(Duration.ofSeconds(60))
                .until(() -> chats.stream().allMatch(c -> !tg.sentTo(c).isEmpty()) && tg.pendingUpdates() == 0);
        for (int i = 0; i < SENDERS; i++) {
            int n = i;
            List<SentMessage> replies = tg.sentTo(chats.get(n));
            assertThat(replies)
                    .as("replies to sender %d", n)
                    .singleElement()
                    .satisfies(m -> assertThat(m.text()).contains("message number " + n));
        }
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(SENDERS);
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DONE, (long) SENDERS);
        assertThat(tg.confirmedOffset()).isGreaterThan(tg.lastUpdateId());
        assertThat(model.chatRequests()).hasSize(SENDERS);
        assertThat(gateway.readiness().parts()).containsEntry("channel.telegram", "ok");
    }
}
