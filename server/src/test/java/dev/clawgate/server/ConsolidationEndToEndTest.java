package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.ConsolidationMode;
import dev.clawgate.core.internal.memory.FactExtraction;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code memory.consolidation = "llm"} through the real gateway, on the fake Telegram and OpenAI servers: the fact
 * request reaches the model after the reply reached the chat, and a later session recalls the fact.
 */
class ConsolidationEndToEndTest extends TelegramGatewayFixture {
    private static final String FACT = "Alice's cat Pixel prefers salmon over chicken.";

    private static boolean isConsolidation(JsonNode body) {
        return FactExtraction.INSTRUCTION.equals(
                body.path("messages").path(0).path("content").asText());
    }

    @Test
    void theFactRequestFollowsTheDeliveredReplyAndALaterSessionRecallsTheFact() throws Exception {
        // SPEC ME-6 (after the turn, off the reply path; the agent's model, no tools), ME-7 (the fact in the model's
        // words,
        // the reply not stored), ME-2/ME-4 (the sender's scope recalled into a later group session's system prompt)
        TelegramChat group = tg.group(-100600, "Pets");
        List<Integer> repliesSeenByConsolidation = new CopyOnWriteArrayList<>();
        model.respondWith(body -> {
            if (isConsolidation(body)) {
                repliesSeenByConsolidation.add(tg.sentTo(dm).size());
                return Reply.text("[\"" + FACT + "\"]");
            }
            String last = body.path("messages")
                    .path(body.path("messages").size() - 1)
                    .path("content")
                    .asText();
            return Reply.text(last.contains("prefer") ? "Salmon, as far as I remember." : "Noted, Pixel sounds picky!");
        });
        start(config(Map.of()).withMemory(MemorySettings.defaults().withConsolidation(ConsolidationMode.LLM)));

        tg.sendText(dm, alice, "Pixel will only eat salmon, never chicken");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.consolidation().done() == 1);

        // the request log: the turn, then the fact request, sent once the reply had reached the chat
        List<RecordedRequest> log = model.chatRequests();
        assertThat(log).hasSize(2);
        assertThat(isConsolidation(log.get(0).body())).isFalse();
        assertThat(isConsolidation(log.get(1).body())).isTrue();
        assertThat(repliesSeenByConsolidation).containsExactly(1);
        assertThat(log.get(1).body().path("tools").isMissingNode()
                        || log.get(1).body().path("tools").isEmpty())
                .isTrue();
        assertThat(log.get(1).lastUserText())
                .isEqualTo(
                        "User:\nPixel will only eat salmon, never chicken\n\nAssistant:\nNoted, Pixel sounds picky!");
        assertThat(log.get(1).model()).isEqualTo("gpt-test");

        // kept as alice's fact, in the model's words; the reply itself is nowhere in memory
        MemoryScope aliceScope = MemoryScope.sender("telegram", "111");
        assertThat(gateway.store().memory().list(aliceScope, 10))
                .extracting(MemoryEntry::key, MemoryEntry::content, MemoryEntry::category)
                .contains(org.assertj.core.groups.Tuple.tuple(
                        FactExtraction.key("telegram", "111", FACT), FACT, MemoryEntry.CORE));
        assertThat(gateway.store().memory().list(aliceScope, 10))
                .extracting(MemoryEntry::content)
                .noneMatch(s -> s.contains("sounds picky"));

        // a later session: the group; its system prompt recalls the fact
        tg.sendText(group, alice, "@clawbot does Pixel prefer salmon or chicken?");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(group).size() == 1);
        RecordedRequest later = model.chatRequests().get(2);
        assertThat(isConsolidation(later.body())).isFalse();
        String system = later.messages().get(0).path("content").asText();
        assertThat(system)
                .contains("[Memory context]")
                .contains("- " + FactExtraction.key("telegram", "111", FACT) + ": " + FACT);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.consolidation().done() == 2);
    }
}
