package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Long-term memory through the real gateway: what one session learns, a later one is told (SPEC ME-1..ME-4, ME-7,
 * AG-5).
 */
class MemoryEndToEndTest extends TelegramGatewayFixture {
    private RecordedRequest awaitRequest(int n) {
        return model.awaitRequests(n, Duration.ofSeconds(20)).stream()
                .filter(RecordedRequest::isChatCompletion)
                .toList()
                .get(n - 1);
    }

    private static String systemPrompt(RecordedRequest r) {
        JsonNode first = r.messages().get(0);
        assertThat(first.path("role").asText()).isEqualTo("system");
        return first.path("content").asText();
    }

    private static String userTurns(RecordedRequest r) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode m : r.messages())
            if ("user".equals(m.path("role").asText()))
                sb.append(m.path("content").asText()).append('\n');
        return sb.toString();
    }

    @Test
    void whatAliceSaidInHerDirectChatIsRecalledInALaterGroupSessionAndAGreetingRecallsNothing() throws Exception {
        // SPEC ME-1 (auto-save), ME-2 (the sender's scope is recalled in a group), ME-3, ME-4 (system prompt, not the
        // user turn),
        // ME-7 (a greeting recalls nothing)
        model.enqueue(Reply.text("Noted."), Reply.text("Pixel."), Reply.text("Hello!"));
        start(config(Map.of()));
        TelegramChat group = tg.group(-100500, "Friends");

        tg.sendText(dm, alice, "My cat is named Pixel and she loves tuna");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(dm).size() == 1);
        assertThat(systemPrompt(awaitRequest(1))).doesNotContain("[Memory context]");
        assertThat(gateway.store().memory().list(MemoryScope.sender("telegram", "111"), 10))
                .extracting(MemoryEntry::content, MemoryEntry::category)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "My cat is named Pixel and she loves tuna", "conversation"));

        tg.sendText(group, alice, "@clawbot what is my cat named?");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(group).size() == 1);
        RecordedRequest inGroup = awaitRequest(2);
        String prompt = systemPrompt(inGroup);
        assertThat(prompt)
                .contains("\n\n[Memory context]\n- telegram_111_")
                .endsWith(": My cat is named Pixel and she loves tuna");
        assertThat(userTurns(inGroup)).doesNotContain("Pixel").doesNotContain("[Memory context]");

        tg.sendText(dm, alice, "hi");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(dm).size() == 2);
        RecordedRequest greeting = awaitRequest(3);
        assertThat(greeting.lastUserText()).isEqualTo("hi");
        assertThat(systemPrompt(greeting)).doesNotContain("[Memory context]").doesNotContain("Pixel");
    }

    @Test
    void aFactTheAgentStoresGloballyIsToldToAnotherPersonButTheirOwnWordsAreNot() throws Exception {
        // SPEC AG-5 memory_store, ME-2 (global scope in every recall; one sender's auto-saved words stay theirs), ME-4
        model.enqueue(
                Reply.toolCalls(Reply.call(
                        "memory_store",
                        "{\"key\":\"office_wifi\",\"content\":\"The office wifi password is "
                                + "hunter2\",\"scope\":\"global\"}")),
                Reply.text("Stored for everyone."),
                Reply.text("It is hunter2."));
        int port = serve(config());

        assertThat(chat(port, "alice", "Please remember for everyone: the office wifi password is hunter2", null)
                        .status())
                .isEqualTo(200);
        assertThat(gateway.store().memory().get(MemoryScope.global(), "office_wifi"))
                .map(MemoryEntry::content)
                .contains("The office wifi password is hunter2");

        assertThat(chat(port, "bob", "What is the office wifi password?", null).content())
                .isEqualTo("It is hunter2.");
        String prompt = systemPrompt(awaitRequest(3));
        assertThat(prompt).endsWith("[Memory context]\n- office_wifi: The office wifi password is hunter2");
        assertThat(prompt).doesNotContain("Please remember for everyone");
    }
}
