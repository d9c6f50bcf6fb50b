package dev.clawgate.core.internal.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.ScriptedProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Block streaming through a turn (SPEC OUT-2): blocks while the model writes, then the final reply with only the rest.
 */
class BlockStreamingTurnTest {
    private static final String P1 = "First paragraph, long enough to be a block.";
    private static final String P2 = "Second paragraph, also long enough for one.";
    private static final String P3 = "Third and last.";

    @TempDir
    Path workspace;

    private static BlockStreaming settings(HumanDelay delay) {
        return new BlockStreaming(
                BlockStreaming.BreakMode.TEXT_END,
                30,
                200,
                BlockStreaming.BreakPreference.PARAGRAPH,
                Duration.ofMillis(1000),
                delay);
    }

    private static void streamed(ScriptedProvider p, String... deltas) {
        p.answer(new ChatResponse(String.join("", deltas), List.of(), null, new Usage(0, 0, 0), "stop"), deltas);
    }

    private TurnFixture fixture(BlockStreaming blocks, ReplyToMode mode, String prefix) {
        TurnFixture f = new TurnFixture(workspace, "test");
        f.output = new ChannelOutput(mode, prefix, Map.of(), blocks);
        streamed(f.provider("p", "m", true, false), P1 + "\n\n", P2 + "\n\n", P3);
        return f;
    }

    private static List<String> texts(TurnFixture f, OutboundMessage.Kind kind) {
        return f.channel.texts(kind);
    }

    @Test
    void blocksGoOutWhileTheModelWritesAndTheFinalReplyCarriesOnlyTheRest() {
        // SPEC OUT-2: partial replies as blocks; the outbox entry holds what remains, the transcript the whole reply
        TurnFixture f = fixture(settings(HumanDelay.off()), ReplyToMode.OFF, null);
        InboxRecord r = f.record("alice", "tell me three things");
        f.run(r);

        assertThat(texts(f, OutboundMessage.Kind.BLOCK)).containsExactly(P1, P2);
        assertThat(texts(f, OutboundMessage.Kind.FINAL)).containsExactly(P3);
        // SPEC OUT-9: no draft above the blocks
        assertThat(f.channel.streamsOpened).isEmpty();
        assertThat(f.channel.sent)
                .extracting(OutboundMessage::kind)
                .containsExactly(OutboundMessage.Kind.BLOCK, OutboundMessage.Kind.BLOCK, OutboundMessage.Kind.FINAL);
        assertThat(f.store.outbox().byState(OutboxState.values()))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.draft().text()).isEqualTo(P3);
                    assertThat(e.state()).isEqualTo(OutboxState.SENT);
                });
        assertThat(f.store.transcripts().load(r.session(), 10).getLast().content())
                .isEqualTo(P1 + "\n\n" + P2 + "\n\n" + P3);
        assertThat(f.store.inbox().find(r.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    @Test
    void blockStreamingIsOffByDefault() {
        // SPEC OUT-2: off by default; the reply is one final message
        TurnFixture f = fixture(null, ReplyToMode.OFF, null);
        f.run(f.record("alice", "tell me three things"));
        assertThat(texts(f, OutboundMessage.Kind.BLOCK)).isEmpty();
        assertThat(texts(f, OutboundMessage.Kind.FINAL)).containsExactly(P1 + "\n\n" + P2 + "\n\n" + P3);
    }

    @Test
    void theFirstBlockCarriesThePrefixAndTheQuoteAndTheRestNeither() {
        // SPEC OUT-2, OUT-3: blocks count as the turn's messages for reply_to_mode = first and the prefix
        TurnFixture f = fixture(settings(HumanDelay.off()), ReplyToMode.FIRST, "bot:");
        f.run(f.record("alice", "tell me three things"));

        assertThat(f.channel.sent).extracting(OutboundMessage::text).containsExactly("bot: " + P1, P2, P3);
        assertThat(f.channel.sent).extracting(m -> m.options().replyTo()).containsExactly(true, false, false);
        assertThat(f.store.outbox().byState(OutboxState.values()))
                .singleElement()
                .satisfies(e -> assertThat(e.draft().replyTo()).isEqualTo(ReplyToMode.OFF));
    }

    @Test
    void blocksWaitingForTheirHumanDelayGoWithTheFinalReplyInstead() {
        // SPEC OUT-2: human_delay pauses after the first block; when the model is done first, the rest is the final
        // reply
        TurnFixture f = fixture(settings(HumanDelay.natural()), ReplyToMode.OFF, null);
        f.run(f.record("alice", "tell me three things"));

        assertThat(texts(f, OutboundMessage.Kind.BLOCK)).containsExactly(P1);
        assertThat(texts(f, OutboundMessage.Kind.FINAL)).containsExactly(P2 + "\n\n" + P3);
        f.scheduler.advance(10_000);
        assertThat(f.channel.sent).hasSize(2);
        assertThat(f.scheduler.live()).isZero();
    }

    @Test
    void aShortReplyThatNeverMadeABlockIsTheWholeFinalReply() {
        // SPEC OUT-2: min_chars holds small text back; the final reply is then the reply as usual
        TurnFixture f = new TurnFixture(workspace, "test");
        f.output = new ChannelOutput(ReplyToMode.OFF, null, Map.of(), settings(HumanDelay.off()));
        streamed(f.provider("p", "m", true, false), "Short ", "answer.");
        f.run(f.record("alice", "hi"));
        assertThat(texts(f, OutboundMessage.Kind.BLOCK)).isEmpty();
        assertThat(texts(f, OutboundMessage.Kind.FINAL)).containsExactly("Short answer.");
    }

    @Test
    void theFirstBlockIsCutWithItsPrefixCountedSoNoBlockOutgrowsMaxChars() {
        // SPEC OUT-2 (max_chars), OUT-3 (the prefix on the turn's first message)
        TurnFixture f = new TurnFixture(workspace, "test");
        f.output = new ChannelOutput(
                ReplyToMode.OFF,
                "[assistant]",
                Map.of(),
                new BlockStreaming(
                        BlockStreaming.BreakMode.TEXT_END,
                        30,
                        60,
                        BlockStreaming.BreakPreference.SENTENCE,
                        Duration.ofMillis(1000),
                        HumanDelay.off()));
        String sentence = "Every sentence here is exactly fifty-nine characters long. ";
        streamed(f.provider("p", "m", true, false), sentence, sentence, sentence, "The end.");
        f.run(f.record("alice", "talk"));
        List<String> blocks = texts(f, OutboundMessage.Kind.BLOCK);
        assertThat(blocks).isNotEmpty().allSatisfy(b -> assertThat(b.length()).isLessThanOrEqualTo(60));
        assertThat(blocks.getFirst()).startsWith("[assistant] Every");
        assertThat(blocks.subList(1, blocks.size())).noneMatch(b -> b.contains("[assistant]"));
        assertThat(texts(f, OutboundMessage.Kind.FINAL)).noneMatch(t -> t.contains("[assistant]"));
    }

    @Test
    void withReasoningOnTheReasoningGoesOutBeforeTheFirstBlock() {
        // SPEC RP-4 on: reasoning sent as a separate block before the answer, also when the answer streams as blocks
        // (OUT-2)
        TurnFixture f = new TurnFixture(workspace, "test");
        f.output = new ChannelOutput(ReplyToMode.OFF, null, Map.of(), settings(HumanDelay.off()));
        ScriptedProvider p = f.provider("p", "m", true, false);
        p.working(
                o -> {
                    o.onReasoningDelta("Three points, ");
                    o.onReasoningDelta("in order.");
                    for (String d : List.of(P1 + "\n\n", P2 + "\n\n", P3)) o.onTextDelta(d);
                },
                new ChatResponse(
                        P1 + "\n\n" + P2 + "\n\n" + P3,
                        List.of(),
                        "Three points, in order.",
                        new Usage(0, 0, 0),
                        "stop"));
        f.run(f.record("alice", "/reasoning on"));
        f.channel.sent.clear();
        f.run(f.record("alice", "tell me three things"));
        assertThat(f.channel.sent)
                .extracting(OutboundMessage::kind)
                .containsExactly(
                        OutboundMessage.Kind.NOTICE,
                        OutboundMessage.Kind.BLOCK,
                        OutboundMessage.Kind.BLOCK,
                        OutboundMessage.Kind.FINAL);
        assertThat(f.channel.sent.getFirst().text()).isEqualTo("💭 Three points, in order.");
    }
}
