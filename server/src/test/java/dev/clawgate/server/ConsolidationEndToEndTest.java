package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.ConsolidationMode;
import dev.clawgate.core.memory.FactExtraction;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memory.consolidation = "llm"} through the real gateway, on the fake Telegram and OpenAI servers:
 * the fact request reaches the model after the reply reached the chat, and a later session recalls the fact.
 */
class ConsolidationEndToEndTest {
    private static final String TOKEN = "123456:consolidate-token_xyz";
    private static final String FACT = "Alice's cat Pixel prefers salmon over chicken.";

    @TempDir
    Path dir;
    private FakeOpenAiServer model;
    private FakeTelegramServer tg;
    private Gateway gateway;

    @BeforeEach
    void startFakes() {
        model = FakeOpenAiServer.start();
        tg = FakeTelegramServer.start(TOKEN, "clawbot");
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        tg.close();
        model.close();
    }

    private static boolean isConsolidation(JsonNode body) {
        return FactExtraction.INSTRUCTION.equals(body.path("messages").path(0).path("content").asText());
    }

    @Test
    void theFactRequestFollowsTheDeliveredReplyAndALaterSessionRecallsTheFact() throws Exception {
        // SPEC ME-6 (after the turn, off the reply path; the agent's model, no tools), ME-7 (the fact in the model's words,
        // the reply not stored), ME-2/ME-4 (the sender's scope recalled into a later group session's system prompt)
        TelegramUser alice = tg.user(111, "alice");
        TelegramChat dm = tg.privateChat(alice);
        TelegramChat group = tg.group(-100600, "Pets");
        List<Integer> repliesSeenByConsolidation = new CopyOnWriteArrayList<>();
        model.respondWith(body -> {
            if (isConsolidation(body)) {
                repliesSeenByConsolidation.add(tg.sentTo(dm).size());
                return Reply.text("[\"" + FACT + "\"]");
            }
            String last = body.path("messages").path(body.path("messages").size() - 1).path("content").asText();
            return Reply.text(last.contains("prefer") ? "Salmon, as far as I remember." : "Noted, Pixel sounds picky!");
        });
        ClawgateConfig c = GatewayHarness.config(dir, model.baseUrl(), null);
        AccessSettings open = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
        ClawgateConfig cfg = new ClawgateConfig(c.gateway(), c.agent(), c.providers(), c.routes(), c.history(), c.tools(), c.dispatch(),
                c.session(), c.inbound(), c.queue(), Map.of("telegram", new ChannelSettings("telegram", open, Map.of(),
                Map.of("bot_token", TOKEN, "api_base", tg.apiBase()))))
                .withMemory(MemorySettings.defaults().withConsolidation(ConsolidationMode.LLM));
        gateway = Gateway.start(cfg, Gateway.Options.with());

        tg.sendText(dm, alice, "Pixel will only eat salmon, never chicken");
        await().atMost(Duration.ofSeconds(20)).until(() -> gateway.consolidation().done() == 1);

        // the request log: the turn, then the fact request, sent once the reply had reached the chat
        List<RecordedRequest> log = model.chatRequests();
        assertThat(log).hasSize(2);
        assertThat(isConsolidation(log.get(0).body())).isFalse();
        assertThat(isConsolidation(log.get(1).body())).isTrue();
        assertThat(repliesSeenByConsolidation).containsExactly(1);
        assertThat(log.get(1).body().path("tools").isMissingNode() || log.get(1).body().path("tools").isEmpty()).isTrue();
        assertThat(log.get(1).lastUserText())
                .isEqualTo("User:\nPixel will only eat salmon, never chicken\n\nAssistant:\nNoted, Pixel sounds picky!");
        assertThat(log.get(1).model()).isEqualTo("gpt-test");

        // kept as alice's fact, in the model's words; the reply itself is nowhere in memory
        MemoryScope aliceScope = MemoryScope.sender("telegram", "111");
        assertThat(gateway.store().memory().list(aliceScope, 10)).extracting(MemoryEntry::key, MemoryEntry::content, MemoryEntry::category)
                .contains(org.assertj.core.groups.Tuple.tuple(FactExtraction.key("telegram", "111", FACT), FACT, MemoryEntry.CORE));
        assertThat(gateway.store().memory().list(aliceScope, 10)).extracting(MemoryEntry::content)
                .noneMatch(s -> s.contains("sounds picky"));

        // a later session: the group; its system prompt recalls the fact
        tg.sendText(group, alice, "@clawbot does Pixel prefer salmon or chicken?");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(group).size() == 1);
        RecordedRequest later = model.chatRequests().get(2);
        assertThat(isConsolidation(later.body())).isFalse();
        String system = later.messages().get(0).path("content").asText();
        assertThat(system).contains("[Memory context]").contains("- " + FactExtraction.key("telegram", "111", FACT) + ": " + FACT);
        await().atMost(Duration.ofSeconds(20)).until(() -> gateway.consolidation().done() == 2);
    }
}
