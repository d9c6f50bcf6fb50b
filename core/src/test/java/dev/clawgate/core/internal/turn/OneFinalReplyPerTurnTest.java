package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.LoopbackAdapter;
import dev.clawgate.core.testing.LoopbackChannel;
import dev.clawgate.core.testing.LoopbackPlatform;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One final reply per turn, whatever happens in between (SPEC OUT-12): a model fallback, a compaction retry, a reply
 * that carries both tool calls and text. Counted at the loopback platform by each send's idempotency key
 * ({@code clawgate-<turn>-<kind>-<part>}), so notices (compaction notice, tool announcements) are told apart from the
 * final reply.
 */
class OneFinalReplyPerTurnTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workspace;

    private final LoopbackPlatform platform;

    OneFinalReplyPerTurnTest() throws IOException {
        platform = new LoopbackPlatform();
    }

    @AfterEach
    void stop() {
        platform.close();
    }

    private TurnFixture fixture() {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.platform = new LoopbackChannel(
                "test",
                new LoopbackAdapter(
                        platform,
                        EnumSet.of(
                                Capability.TEXT,
                                Capability.REPLY_TO,
                                Capability.THREAD,
                                Capability.MESSAGE_SENDING_HOOKS),
                        Duration.ofSeconds(5),
                        4000));
        f.tools.add(Tool.create("lookup", "looks a thing up", JSON.createObjectNode(), (a, c) -> ToolResult.ok("42")));
        return f;
    }

    /** The texts the platform received for {@code turn} with idempotency keys of {@code kind}. */
    private List<String> sent(InboxRecord turn, String kind) {
        String prefix = "clawgate-" + turn.id() + "-" + kind + "-";
        return platform.calls("send").stream()
                .filter(c -> c.body().path("key").asText().startsWith(prefix))
                .map(c -> c.body().path("text").asText())
                .toList();
    }

    private static List<OutboxEntry> entries(TurnFixture f, InboxRecord turn) {
        return f.store.outbox().byState(OutboxState.values()).stream()
                .filter(e -> e.turnId() == turn.id())
                .toList();
    }

    private static ProviderException rateLimitedFor(Duration retryAfter) {
        return new ProviderException(
                ProviderException.Kind.RATE_LIMITED, "429 from the primary", 429, retryAfter, null);
    }

    @Test
    void aFallbackAfterTheFirstProviderIsRateLimitedSendsOneFinalReply() {
        // SPEC OUT-12 (a model fallback or rate-limit retry), SP-4: the primary's 429 asks for longer than the cap, so
        // the fallback answers
        TurnFixture f = fixture();
        f.provider("primary", "m1", true, false).fail(rateLimitedFor(Duration.ofMinutes(10)));
        f.provider("backup", "m2", true, false).text("answer from the backup");
        f.fallback.add("backup");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(f.providers.get("primary").requests()).hasSize(1);
        assertThat(f.providers.get("backup").requests()).hasSize(1);
        assertThat(sent(r, "final")).containsExactly("answer from the backup");
        assertThat(platform.calls("send")).hasSize(1);
        assertThat(entries(f, r))
                .singleElement()
                .satisfies(e -> assertThat(e.state()).isEqualTo(OutboxState.SENT));
    }

    @Test
    void aProviderThatBrokeAfterItsTextWasShownIsNotHandedToTheFallbackSoNoReplyStartsTwice() {
        // SPEC OUT-12, OUT-2, SP-4: the primary's text may already be on the chat; the backup's answer would be a
        // second reply
        TurnFixture f = fixture();
        f.output = new ChannelOutput(
                ReplyToMode.OFF,
                null,
                Map.of(),
                new BlockStreaming(
                        BlockStreaming.BreakMode.TEXT_END,
                        30,
                        200,
                        BlockStreaming.BreakPreference.PARAGRAPH,
                        Duration.ofMillis(1000),
                        HumanDelay.off()));
        f.provider("primary", "m1", true, false)
                .failAfterStreaming(
                        new ProviderException(ProviderException.Kind.TRANSIENT, "stream reset", 502, null, null),
                        "The primary started a long first paragraph here.\n\n",
                        "And a second one, before it broke");
        f.provider("backup", "m2", true, false).text("a whole second answer");
        f.fallback.add("backup");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(f.providers.get("backup").requests())
                .as("the backup is not asked once text was shown")
                .isEmpty();
        assertThat(sent(r, "block")).allSatisfy(t -> assertThat(t).startsWith("The primary"));
        assertThat(sent(r, "final")).isEmpty();
        assertThat(sent(r, "error")).hasSize(1);
        assertThat(platform.calls("send"))
                .extracting(c -> c.body().path("text").asText())
                .doesNotContain("a whole second answer");
        assertThat(entries(f, r))
                .singleElement()
                .satisfies(e -> assertThat(e.draft().kind()).isEqualTo(OutboundMessage.Kind.ERROR));
    }

    @Test
    void aFallbackBeforeAnyTextWasShownSendsOneFinalReplyEvenWithBlockStreaming() {
        // SPEC OUT-12, OUT-2, SP-4: the primary failed before streaming anything, so the backup's reply is the only one
        TurnFixture f = fixture();
        f.output = new ChannelOutput(
                ReplyToMode.OFF,
                null,
                Map.of(),
                new BlockStreaming(
                        BlockStreaming.BreakMode.TEXT_END,
                        30,
                        200,
                        BlockStreaming.BreakPreference.PARAGRAPH,
                        Duration.ofMillis(1000),
                        HumanDelay.off()));
        f.provider("primary", "m1", true, false).fail(rateLimitedFor(Duration.ofMinutes(10)));
        String whole = "The backup's first paragraph, long enough for a block.\n\nThe backup's end.";
        f.provider("backup", "m2", true, false)
                .answer(
                        new ChatResponse(whole, List.of(), null, new Usage(0, 0, 0), "stop"),
                        "The backup's first paragraph, long enough for a block.\n\n",
                        "The backup's end.");
        f.fallback.add("backup");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(sent(r, "final")).containsExactly("The backup's end.");
        assertThat(sent(r, "block")).containsExactly("The backup's first paragraph, long enough for a block.");
        assertThat(entries(f, r))
                .singleElement()
                .satisfies(e -> assertThat(e.state()).isEqualTo(OutboxState.SENT));
    }

    @Test
    void aCompactionRetrySendsItsNoticeApartAndOneFinalReply() {
        // SPEC OUT-12 (a compaction retry; compaction notices are notices), HI-5
        TurnFixture f = fixture();
        f.provider("p", "m", true, false)
                .fail(new ProviderException(
                        ProviderException.Kind.CONTEXT_OVERFLOW, "context_length_exceeded", 400, null, null))
                .text("answer after compaction");
        InboxRecord r = f.record("alice", "a very long question " + "x".repeat(900));

        f.run(r);

        assertThat(f.providers.get("p").requests()).hasSize(2);
        assertThat(sent(r, "notice")).singleElement().asString().contains("compacted");
        assertThat(sent(r, "final")).containsExactly("answer after compaction");
        assertThat(platform.calls("send"))
                .extracting(c -> c.body().path("key").asText())
                .containsExactly("clawgate-" + r.id() + "-notice-0", "clawgate-" + r.id() + "-final-0");
        // the notice is best-effort and never replayed: it has no outbox entry
        assertThat(entries(f, r)).singleElement().satisfies(e -> {
            assertThat(e.draft().kind()).isEqualTo(OutboundMessage.Kind.FINAL);
            assertThat(e.state()).isEqualTo(OutboxState.SENT);
        });
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    @Test
    void aReplyCarryingBothNativeToolCallsAndTextSendsOnlyTheLastAnswerAsTheFinalReply() throws Exception {
        // SPEC OUT-12 (a reply that carries both tool calls and text), AG-6: the tool announcement is a notice
        TurnFixture f = fixture();
        f.showToolCalls = true;
        f.provider("p", "m", true, false)
                .answer(new ChatResponse(
                        "Let me look that up first.",
                        List.of(new ToolCall("c1", "lookup", JSON.readTree("{\"q\":\"x\"}"))),
                        null,
                        null,
                        "tool_calls"))
                .text("The answer is 42.");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(sent(r, "final")).containsExactly("The answer is 42.");
        assertThat(sent(r, "notice")).singleElement().asString().startsWith("🔧 `lookup`");
        assertThat(platform.calls("send"))
                .extracting(c -> c.body().path("text").asText())
                .doesNotContain("Let me look that up first.");
        assertThat(entries(f, r))
                .singleElement()
                .satisfies(e -> assertThat(e.draft().kind()).isEqualTo(OutboundMessage.Kind.FINAL));
    }

    @Test
    void aReplyCarryingToolCallTagsAndTextSendsOnlyTheLastAnswerAsTheFinalReply() {
        // SPEC OUT-12, AG-1 (tool calls as tags in the text), RP-2
        TurnFixture f = fixture();
        f.provider("p", "m", false, false)
                .text("Checking now.\n<tool_call>{\"name\":\"lookup\",\"arguments\":{\"q\":\"x\"}}</tool_call>")
                .text("Found it: 42.");
        InboxRecord r = f.record("alice", "question");

        f.run(r);

        assertThat(sent(r, "final")).containsExactly("Found it: 42.");
        assertThat(platform.calls("send")).hasSize(1);
        assertThat(entries(f, r)).hasSize(1);
    }
}
