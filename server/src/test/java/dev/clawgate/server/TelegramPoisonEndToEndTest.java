package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.store.UnreadableInbound;
import dev.clawgate.testkit.openai.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A poison update through the whole gateway (SPEC IN-4, CH-0, CH-3): kept as failed, the chat answered after it. */
class TelegramPoisonEndToEndTest extends TelegramGatewayFixture {

    @Test
    void aPoisonUpdateIsStoredAsUnreadableAndTheNextMessageIsAnswered() throws Exception {
        // SPEC IN-4: recorded as failed with the raw update, acknowledged past; CH-0: the channel stays healthy
        model.enqueue(Reply.text("still here"));
        start(config(Map.of()));
        ObjectNode poison = tg.messageJson(dm, alice, "date from far away");
        poison.put("date", 9e18);
        long id = tg.sendRawUpdate(u -> {
            ObjectNode update = new ObjectMapper().createObjectNode().put("update_id", u);
            update.set("message", poison);
            return update;
        });
        tg.sendText(dm, alice, "are you there?");

        assertThat(awaitSent(dm, 1)).extracting(m -> m.text()).containsExactly("still here");
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.confirmedOffset() > id + 1);
        List<UnreadableInbound> kept = gateway.store().inbox().unreadable(10);
        assertThat(kept).singleElement().satisfies(u -> {
            assertThat(u.channel()).isEqualTo("telegram");
            assertThat(u.platformRef()).isEqualTo(Long.toString(id));
            assertThat(u.reason()).contains("message.date");
            assertThat(u.raw()).contains("date from far away");
        });
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(1);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aPoisonUpdateIsCountedOnTheMetricsScrapeForItsChannel() throws Exception {
        // SPEC IN-4 (recorded as failed), OP-3 (/metrics): the count shows from 0, and once per poison update
        model.enqueue(Reply.text("still here"));
        int port = serve(config(Map.of()));
        assertThat(GatewayHarness.get(port, "/metrics", null).body().lines())
                .contains("clawgate_inbound_unreadable_total{channel=\"telegram\"} 0.0");
        for (String text : List.of("first poison", "second poison")) {
            ObjectNode poison = tg.messageJson(dm, alice, text);
            poison.put("date", 9e18);
            tg.sendRawUpdate(u -> {
                ObjectNode update = new ObjectMapper().createObjectNode().put("update_id", u);
                update.set("message", poison);
                return update;
            });
        }
        tg.sendText(dm, alice, "are you there?");
        assertThat(awaitSent(dm, 1)).extracting(m -> m.text()).containsExactly("still here");

        await().atMost(Duration.ofSeconds(10))
                .until(() -> gateway.store().inbox().unreadable(10).size() == 2);
        assertThat(GatewayHarness.get(port, "/metrics", null).body().lines())
                .contains("clawgate_inbound_unreadable_total{channel=\"telegram\"} 2.0");
    }
}
