package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.store.InboxRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typing indicator while a turn works (SPEC RP-5) and /reasoning on|off|stream (SPEC RP-4), at the channel. */
class TypingAndReasoningTest {
    @TempDir
    Path workspace;

    @Test
    void typingIsShownAtOnceAndRefreshedEveryFourSecondsUntilTheReplyGoesOut() {
        // SPEC RP-5: typing refreshed every 4 s while a run is active
        TurnFixture f = new TurnFixture(workspace, "test");
        List<Integer> typingWhenReplied = new java.util.ArrayList<>();
        f.provider("p", "m", true, false).working(o -> f.scheduler.advance(9_000), ChatResponse.text("done"));
        InboxRecord r = f.record("alice", "slow question");

        f.run(r);
        typingWhenReplied.add(f.channel.typing.size());
        f.scheduler.advance(20_000);

        // at 0 s, 4 s and 8 s of a 9 s model call; none after the reply
        assertThat(typingWhenReplied).containsExactly(3);
        assertThat(f.channel.typing)
                .hasSize(3)
                .allSatisfy(t ->
                        assertThat(t.inReplyToMessageId()).isEqualTo(r.message().id()));
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).containsExactly("done");
        assertThat(f.scheduler.live()).isZero();
    }

    @Test
    void aRuntimeCommandShowsNoTyping() {
        // SPEC RP-5 is about runs; a command answers at once
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false);
        f.run(f.record("alice", "/status"));
        assertThat(f.channel.typing).isEmpty();
    }

    private static ChatResponse withReasoning(String text, String reasoning) {
        return new ChatResponse(text, List.of(), reasoning, new Usage(0, 0, 0), "stop");
    }

    private TurnFixture reasoningTurn(String mode) {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false)
                .working(
                        o -> {
                            o.onReasoningDelta("Thinking about ");
                            o.onReasoningDelta("the answer.");
                            o.onTextDelta("42");
                        },
                        withReasoning("42", "Thinking about the answer."));
        f.run(f.record("alice", "/reasoning " + mode));
        f.run(f.record("alice", "what is the answer?"));
        return f;
    }

    @Test
    void reasoningStreamGoesIntoThePreview() {
        // SPEC RP-4 stream: streamed into the draft preview where the channel has one
        TurnFixture f = reasoningTurn("stream");
        assertThat(String.join("", f.channel.reasoning)).isEqualTo("Thinking about the answer.");
        assertThat(f.channel.texts(OutboundMessage.Kind.NOTICE)).isEmpty();
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).endsWith("42");
    }

    @Test
    void reasoningOnIsASeparateMessageBeforeTheAnswer() {
        // SPEC RP-4 on: sent as a separate block before the answer
        TurnFixture f = reasoningTurn("on");
        assertThat(f.channel.reasoning).isEmpty();
        List<String> texts = f.channel.sent.stream().map(OutboundMessage::text).toList();
        assertThat(texts).containsSubsequence("💭 Thinking about the answer.", "42");
        // the answer goes below its reasoning: the draft above it is given up before the notice
        assertThat(f.channel.streamsDiscarded).hasSize(1);
    }

    @Test
    void reasoningOffShowsNone() {
        // SPEC RP-4 off (the default): hidden
        TurnFixture f = reasoningTurn("off");
        assertThat(f.channel.reasoning).isEmpty();
        assertThat(f.channel.sent).noneMatch(m -> m.text().contains("Thinking"));
        assertThat(f.channel.streamsOpened).hasSize(1);
        assertThat(f.channel.streamsDiscarded).isEmpty();
    }

    /** A model that reasons inline: the think block cut mid-tag across deltas, as SSE chunks cut it. */
    private TurnFixture inlineReasoningTurn(String mode) {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.provider("p", "m", true, false)
                .working(
                        o -> {
                            for (String d : List.of("<thi", "nk>Six times ", "seven.</th", "ink>", "4", "2"))
                                o.onTextDelta(d);
                        },
                        ChatResponse.text("<think>Six times seven.</think>42"));
        f.run(f.record("alice", "/reasoning " + mode));
        f.run(f.record("alice", "what is six times seven?"));
        return f;
    }

    @Test
    void inlineThinkReasoningIsStreamedIntoThePreviewAndNotIntoTheText() {
        // SPEC RP-4 stream, RP-2: <think> content goes to the reasoning stream, the text stream never sees it
        TurnFixture f = inlineReasoningTurn("stream");
        assertThat(String.join("", f.channel.reasoning)).isEqualTo("Six times seven.");
        assertThat(String.join("", f.channel.deltas)).isEqualTo("42");
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL)).endsWith("42");
        assertThat(f.channel.texts(OutboundMessage.Kind.NOTICE)).isEmpty();
    }

    @Test
    void inlineThinkReasoningIsSentBeforeTheAnswerWithReasoningOn() {
        // SPEC RP-4 on: inline reasoning is reasoning too, sent as its own message before the answer
        TurnFixture f = inlineReasoningTurn("on");
        assertThat(f.channel.reasoning).isEmpty();
        List<String> texts = f.channel.sent.stream().map(OutboundMessage::text).toList();
        assertThat(texts).containsSubsequence("💭 Six times seven.", "42");
        assertThat(f.channel.texts(OutboundMessage.Kind.FINAL).getLast()).isEqualTo("42");
    }

    @Test
    void inlineThinkReasoningStaysHiddenWithReasoningOff() {
        // SPEC RP-4 off, RP-2
        TurnFixture f = inlineReasoningTurn("off");
        assertThat(f.channel.reasoning).isEmpty();
        assertThat(f.channel.sent).noneMatch(m -> m.text().contains("Six times"));
        assertThat(String.join("", f.channel.deltas)).isEqualTo("42");
    }
}
