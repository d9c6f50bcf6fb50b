package dev.clawgate.core.internal.turn;

import dev.clawgate.core.internal.agent.StepObserver;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * What a turn does as the agent loop goes (SPEC OUT-2, RP-4, RT-1): the text into the preview or the blocks, the
 * reasoning into the draft or ahead of the first block, the tool the run waits on.
 */
final class TurnObserver implements StepObserver {
    private final TurnServices s;
    private final Replies replies;
    private final Turn turn;
    private final BlockReplies blocks;
    private final ReplyStream preview;
    private final boolean streamReasoning;
    private final boolean reasoningFirst;
    private final StringBuilder thought = new StringBuilder();
    private final AtomicBoolean reasoningSent = new AtomicBoolean();
    private final StreamingReply streaming;

    /** {@code sendReasoning} sends the reasoning so far as a notice and says whether there was any. */
    TurnObserver(
            TurnServices s,
            Replies replies,
            Turn turn,
            ToolRegistry tools,
            String reasoning,
            BlockReplies blocks,
            ReplyStream preview,
            Predicate<String> sendReasoning) {
        this.s = s;
        this.replies = replies;
        this.turn = turn;
        this.blocks = blocks;
        this.preview = preview;
        // SPEC RP-4 stream: reasoning goes into the draft preview where the channel has one; inline <think> text too
        this.streamReasoning = "stream".equals(reasoning) && blocks == null;
        // SPEC RP-4 on with block streaming: the reasoning so far goes out before the first block, not after the answer
        this.reasoningFirst = "on".equals(reasoning) && blocks != null;
        if (reasoningFirst) {
            blocks.beforeFirstBlock(() -> reasoningSent.set(sendReasoning.test(thought.toString())));
        }
        ReplyStream stream = blocks != null ? blocks : preview;
        this.streaming = new StreamingReply(
                stream,
                tools.names(),
                turn.config().agent().reasoningTags(),
                streamReasoning ? preview::reasoning : reasoningFirst ? thought::append : t -> {});
    }

    /** Whether the reasoning already went out ahead of the first block. */
    boolean reasoningSent() {
        return reasoningSent.get();
    }

    void finishStreaming() {
        streaming.finish();
    }

    @Override
    public void onStepStart(int step) {
        streaming.newStep();
        if (step > 0 && blocks != null) blocks.stepEnded();
    }

    @Override
    public void onTextDelta(String delta) {
        streaming.delta(delta);
    }

    @Override
    public void onReasoningDelta(String delta) {
        if (streamReasoning) preview.reasoning(delta);
        else if (reasoningFirst) thought.append(delta);
    }

    @Override
    public void onToolCall(ToolCall call) {
        // SPEC RT-1: /status names the tool the run waits on, and since when
        turn.handle().toolStarted(call.name(), s.clock().instant());
        if (turn.config().agent().showToolCalls()) {
            replies.announceTool(turn.adapter(), turn.target(), call, turn.id(), turn.cancel());
        }
    }

    @Override
    public void onToolDone(ToolCall call) {
        turn.handle().toolEnded();
    }
}
