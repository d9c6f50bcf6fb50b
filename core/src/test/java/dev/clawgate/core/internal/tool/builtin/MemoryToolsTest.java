package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.SESSION;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.InMemoryMemory;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memory_store}, {@code memory_recall}, {@code memory_forget} (SPEC AG-5, ME-2, ME-7). */
class MemoryToolsTest {
    private static final MemoryScope ALICE = MemoryScope.sender("test", "alice");

    @TempDir
    Path workspace;

    private final InMemoryMemory memory = new InMemoryMemory(Clock.systemUTC());
    private final MemoryStoreTool store = new MemoryStoreTool(MemorySettings.defaults());
    private final MemoryRecallTool recall = new MemoryRecallTool(8_000);
    private final MemoryForgetTool forget = new MemoryForgetTool();

    private ToolContext direct() {
        return new ToolContext(
                workspace,
                SESSION,
                CancelToken.none(),
                null,
                memory,
                MemoryScopes.of(InboundMessage.direct("test", "1", "alice", "x"), SESSION));
    }

    private ToolContext group() {
        SessionKey room = new SessionKey("test", null, ChatType.GROUP, "room", null, null);
        InboundMessage m = new InboundMessage(
                "1",
                "test",
                null,
                "alice",
                null,
                "room",
                null,
                null,
                ChatType.GROUP,
                true,
                Instant.EPOCH,
                "x",
                List.of(),
                null);
        return new ToolContext(workspace, room, CancelToken.none(), null, memory, MemoryScopes.of(m, room));
    }

    @Test
    void storeKeepsTheFactInTheSendersScopeInADirectChat() {
        // SPEC AG-5 memory_store; ME-2: a direct chat's memories are the sender's
        ToolResult r = store.execute(args("key", "favourite_colour", "content", "Alice likes teal"), direct());

        assertThat(r.error()).isFalse();
        assertThat(memory.all())
                .extracting(MemoryEntry::scope, MemoryEntry::key, MemoryEntry::content, MemoryEntry::category)
                .containsExactly(tuple(ALICE, "favourite_colour", "Alice likes teal", MemoryEntry.CORE));
    }

    @Test
    void inAGroupTheDefaultScopeIsTheRoomAndTheScopeArgumentChoosesAnother() {
        // SPEC ME-2: a group's memories are the room's
        store.execute(args("key", "standup", "content", "Standup is at ten"), group());
        store.execute(args("key", "editor", "content", "Alice uses helix", "scope", "sender"), group());
        store.execute(
                args("key", "office", "content", "The office closes at six", "scope", "global", "category", "facts"),
                group());

        assertThat(memory.all())
                .extracting(e -> e.scope().kind(), MemoryEntry::key, MemoryEntry::category)
                .containsExactly(
                        tuple(MemoryScope.Kind.SESSION, "standup", "core"),
                        tuple(MemoryScope.Kind.SENDER, "editor", "core"),
                        tuple(MemoryScope.Kind.GLOBAL, "office", "facts"));
    }

    @Test
    void badInputIsAnErrorResultAndStoresNothing() {
        // SPEC AG-5: bad arguments come back to the model as errors; ME-7: no recalled blobs, no oversized entries
        assertThat(store.execute(args("content", "no key"), direct()).output()).contains("key");
        assertThat(store.execute(args("key", " ", "content", "x"), direct()).error())
                .isTrue();
        assertThat(store.execute(args("key", "k", "content", "  "), direct()).error())
                .isTrue();
        assertThat(store.execute(args("key", "k", "content", "x", "scope", "everyone"), direct())
                        .output())
                .contains("scope");
        assertThat(store.execute(args("key", "k", "content", "x", "category", "Not Valid"), direct())
                        .output())
                .contains("category");
        assertThat(store.execute(args("key", "k", "content", "[Memory context]\n- a: b"), direct())
                        .error())
                .isTrue();
        assertThat(store.execute(args("key", "k", "content", "x".repeat(4_001)), direct())
                        .output())
                .contains("4000");
        assertThat(store.execute(args("key", 42, "content", "x"), direct()).error())
                .isTrue();
        assertThat(memory.all()).isEmpty();
    }

    @Test
    void withoutMemoryTheToolsRefuseOrFindNothing() {
        // a context without memory (tests of other tools, one-off runs)
        ToolContext none = ToolFixtures.context(workspace);
        assertThat(store.execute(args("key", "k", "content", "x"), none).error())
                .isTrue();
        assertThat(recall.execute(args("query", "anything"), none).output()).startsWith("No memories");
        assertThat(forget.execute(args("key", "k"), none).error()).isTrue();
    }

    @Test
    void recallListsMatchesBestFirstWithScoresFromEveryScopeTheTurnSees() {
        // SPEC AG-5 memory_recall; ME-2: sender and global scopes, and the room in a group
        memory.store(ALICE, "cat", "Alice's cat is named Pixel", MemoryEntry.CORE);
        memory.store(MemoryScope.global(), "pets", "Pets are welcome in the office, cats included", MemoryEntry.CORE);
        memory.store(MemoryScope.sender("test", "bob"), "bobcat", "Bob's cat is named Tiger", MemoryEntry.CORE);

        ToolResult r = recall.execute(args("query", "cat named"), direct());

        assertThat(r.error()).isFalse();
        assertThat(r.output().lines().toList()).hasSize(2);
        assertThat(r.output())
                .startsWith("- cat (sender, core, score 1.00): Alice's cat is named Pixel")
                .contains("- pets (global")
                .doesNotContain("Tiger");
        assertThat(recall.execute(args("query", "cat", "scope", "global"), direct())
                        .output())
                .doesNotContain("Pixel");
        assertThat(recall.execute(args("query", "cat", "limit", 99), direct()).error())
                .isTrue();
        assertThat(recall.execute(args("query", "hi"), direct()).output()).isEqualTo("No memories match 'hi'.");
    }

    @Test
    void forgetRemovesByKeyInTheTurnsScope() {
        // SPEC AG-5 memory_forget
        memory.store(ALICE, "cat", "Alice's cat is named Pixel", MemoryEntry.CORE);

        assertThat(forget.execute(args("key", "cat", "scope", "global"), direct())
                        .error())
                .isTrue();
        assertThat(forget.execute(args("key", "cat"), direct()).output()).isEqualTo("Forgot memory 'cat' (sender).");
        assertThat(memory.all()).isEmpty();
        assertThat(forget.execute(args("key", "cat"), direct()).error()).isTrue();
    }
}
