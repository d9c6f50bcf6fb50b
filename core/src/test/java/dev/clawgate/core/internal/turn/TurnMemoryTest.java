package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.testing.ScriptedProvider;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A turn's recall into the system prompt and auto-save of the user's words (SPEC ME-1..ME-4, ME-7, SP-2). */
class TurnMemoryTest {
    @TempDir
    Path workspace;

    private static String system(ScriptedProvider p, int request) {
        List<ChatMessage> messages = p.requests().get(request).messages();
        assertThat(messages.getFirst().role()).isEqualTo(Role.SYSTEM);
        return messages.getFirst().content();
    }

    private static List<ChatMessage> nonSystem(ScriptedProvider p, int request) {
        return p.requests().get(request).messages().stream()
                .filter(m -> m.role() != Role.SYSTEM)
                .toList();
    }

    @Test
    void aMemoryFromAnEarlierSessionIsAppendedToTheSystemPromptNeverToTheUserMessage() {
        // SPEC ME-2 (sender scope across sessions), ME-4 (system prompt, not the user message), SP-1 (memory last)
        TurnFixture f = new TurnFixture(workspace, "test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("noted").text("Pixel");
        f.run(f.record("chat-1", "alice", ChatType.DIRECT, "My cat is named Pixel and she loves tuna"));
        f.run(f.record("chat-2", "alice", ChatType.DIRECT, "What is my cat named?"));

        assertThat(system(p, 0)).doesNotContain("[Memory context]");
        String prompt = system(p, 1);
        assertThat(prompt)
                .endsWith("[Memory context]\n- test_alice_id-" + "My cat is named Pixel and she loves tuna".hashCode()
                        + ": My cat is named Pixel and she loves tuna");
        assertThat(nonSystem(p, 1)).extracting(ChatMessage::content).containsExactly("What is my cat named?");
    }

    @Test
    void aGreetingGetsNoMemoryContext() {
        // SPEC ME-7: a greeting is not answered with memories
        TurnFixture f = new TurnFixture(workspace, "test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("noted").text("hello!");
        f.run(f.record("alice", "Hi, I am planning a trip to Lisbon in May"));
        f.run(f.record("alice", "hi"));

        assertThat(system(p, 1)).doesNotContain("[Memory context]");
    }

    @Test
    void onlyTheUsersOwnWordsAreAutoSavedAndNeverTheReply() {
        // SPEC ME-1 (20 characters, key scheme, conversation category), ME-7 (no assistant text)
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false)
                .text("A reply that is certainly longer than twenty characters")
                .text("ok");
        f.run(f.record("alice", "Remember that the deploy window is Tuesday"));
        f.run(f.record("alice", "short one"));

        assertThat(f.store.memory().all())
                .extracting(MemoryEntry::scope, MemoryEntry::key, MemoryEntry::content, MemoryEntry::category)
                .containsExactly(tuple(
                        MemoryScope.sender("test", "alice"),
                        "test_alice_id-" + "Remember that the deploy window is Tuesday".hashCode(),
                        "Remember that the deploy window is Tuesday",
                        MemoryEntry.CONVERSATION));
    }

    @Test
    void aMessageIsNotRecalledIntoItsOwnTurn() {
        // SPEC ME-4, ME-7: recall runs before the message is saved
        TurnFixture f = new TurnFixture(workspace, "test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("ok");
        f.run(f.record("alice", "The deploy window is Tuesday afternoon"));

        assertThat(system(p, 0)).doesNotContain("[Memory context]");
        assertThat(f.store.memory().all()).hasSize(1);
    }

    @Test
    void theCachedPromptIsReusedAndOnlyTheMemorySectionChanges() {
        // SPEC SP-2: an existing session reuses its prompt except for the date/time and memory parts
        TurnFixture f = new TurnFixture(workspace, "test");
        ScriptedProvider p = f.provider("p", "m", true, false).text("a").text("b");
        f.run(f.record("alice", "Our release train leaves every second Thursday"));
        f.run(f.record("alice", "When does the release train leave?"));

        String first = system(p, 0);
        String second = system(p, 1);
        String memory = second.substring(second.indexOf("\n\n[Memory context]"));
        assertThat(memory).contains("every second Thursday");
        assertThat(withoutDate(second.substring(0, second.length() - memory.length())))
                .isEqualTo(withoutDate(first));
    }

    @Test
    void memoryOffMeansNoRecallNoSaveAndNoMemoryTools() {
        // SPEC defaults table: memory can be switched off
        TurnFixture f = new TurnFixture(workspace, "test");
        f.memory = MemorySettings.defaults().disabled();
        ScriptedProvider p = f.provider("p", "m", true, false).text("a").text("b");
        f.store
                .memory()
                .store(
                        MemoryScope.sender("test", "alice"),
                        "k",
                        "the release train leaves on Thursday",
                        MemoryEntry.CORE);
        f.run(f.record("alice", "When does the release train leave?"));

        assertThat(system(p, 0)).doesNotContain("[Memory context]");
        assertThat(f.store.memory().all()).hasSize(1);
    }

    @Test
    void aGatewayWiredWithoutMemoryStillAnswers() {
        // services built without a Memory get Memory.NONE, which refuses writes; turns must not fail on it
        TurnFixture f = new TurnFixture(workspace, "test");
        f.wireMemory = false;
        f.provider("p", "m", true, false).text("fine");
        f.run(f.record("alice", "A message long enough to be auto-saved"));

        assertThat(f.channel.sent)
                .extracting(dev.clawgate.core.outbound.OutboundMessage::text)
                .containsExactly("fine");
        assertThat(f.store.memory().all()).isEmpty();
    }

    private static String withoutDate(String prompt) {
        return prompt.replaceAll("## Current Date & Time\\n[^\\n]*", "");
    }
}
