package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.agent.AgentLoop;
import dev.clawgate.core.internal.agent.AgentResult;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.agent.Steering;
import dev.clawgate.core.internal.agent.StepObserver;
import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's part of a turn (SPEC AG-1): the agent loop run with streaming, block replies or a preview, one compaction
 * and retry on a context overflow, the reasoning when asked for, then the sanitised reply committed and sent once.
 */
final class AgentAnswer {
    private static final Logger log = LoggerFactory.getLogger(TurnPipeline.class);

    private final TurnServices s;
    private final AgentLoop agent;
    private final ConversationBuilder conversation;
    private final Replies replies;
    private final FinalReplies finalReplies;
    private final TurnEndings endings;

    AgentAnswer(
            TurnServices s,
            AgentLoop agent,
            ConversationBuilder conversation,
            Replies replies,
            FinalReplies finalReplies,
            TurnEndings endings) {
        this.s = s;
        this.agent = agent;
        this.conversation = conversation;
        this.replies = replies;
        this.finalReplies = finalReplies;
        this.endings = endings;
    }

    /** What the agent loop is called with, beside the turn: the model, the tools, the memory and any carried chat. */
    record ModelCall(ModelChoice choice, ToolRegistry tools, List<MemoryLine> recalled, List<ChatMessage> carried) {}

    TurnOutcome answer(Turn turn, ModelCall call, TypingRefresh typing) {
        CancelToken cancel = turn.cancel();
        MessageAdapter adapter = turn.adapter();
        String reasoning = s.store()
                .transcripts()
                .setting(turn.session(), CommandHandler.SETTING_REASONING)
                .orElse("off");
        ReplyShape shape = ReplyShape.of(
                turn.config(),
                turn.current().message(),
                turn.batch().size(),
                call.choice().primary());
        // SPEC OUT-2: with block streaming on, the text goes out as blocks, not into a preview (no draft is shown)
        BlockReplies blocks = blockReplies(turn, shape);
        ReplyStream preview = blocks == null ? adapter.openStream(turn.target()) : ReplyStream.NONE;
        TurnObserver observer = new TurnObserver(
                s, replies, turn, call.tools(), reasoning, blocks, preview, thought -> sendReasoning(turn, thought));
        AgentResult result;
        try {
            result = runWithCompaction(turn, call, observer, blocks != null || preview != ReplyStream.NONE);
        } catch (ProviderException e) {
            if (blocks != null) blocks.cancel();
            return endings.providerFailed(e, turn);
        } catch (RuntimeException e) {
            if (blocks != null) blocks.cancel();
            throw e;
        } finally {
            observer.finishStreaming();
        }
        // SPEC CH-10: the turn's tokens, summed over its model calls, for channels that report them
        adapter.turnUsage(turn.target(), turn.id(), result.usage());
        typing.stop();
        // SPEC RP-4 on: the reasoning as a separate message before the answer
        if ("on".equals(reasoning)
                && !observer.reasoningSent()
                && result.reasoning() != null
                && !result.reasoning().isBlank()
                && !cancel.isCancelled()) {
            preview.discard();
            sendReasoning(turn, result.reasoning());
        }
        return finish(result, turn, call.tools(), shape, blocks);
    }

    /** SPEC RP-4 on: the reasoning as a notice of its own; false when there was none. */
    private boolean sendReasoning(Turn turn, String reasoning) {
        if (reasoning == null || reasoning.isBlank() || turn.cancel().isCancelled()) return false;
        replies.send(
                turn.adapter(),
                turn.target(),
                "💭 " + reasoning.strip(),
                OutboundMessage.Kind.NOTICE,
                turn.id(),
                turn.cancel());
        return true;
    }

    private BlockReplies blockReplies(Turn turn, ReplyShape shape) {
        BlockStreaming settings =
                turn.config().channel(turn.target().channel()).output().blockStreaming();
        return settings == null
                ? null
                : new BlockReplies(
                        settings,
                        s.scheduler(),
                        s.delivery(),
                        turn.adapter(),
                        turn.target(),
                        shape,
                        turn.id(),
                        turn.cancel());
    }

    private AgentResult runWithCompaction(Turn turn, ModelCall call, StepObserver observer, boolean stream)
            throws ProviderException {
        ClawgateConfig config = turn.config();
        InboxRecord current = turn.current();
        ToolContext toolContext = new ToolContext(
                config.agent().workspace(),
                turn.session(),
                turn.cancel(),
                new TurnMessages(
                        s, finalReplies, turn.id(), turn.target(), s.outbox().cancelOf(turn.id())),
                config.memory().enabled() ? s.memory() : Memory.NONE,
                MemoryScopes.of(current.message(), turn.session()),
                current.message());
        Steering steering = new TurnSteering(s.store(), turn);
        boolean compactedOnce = false;
        while (true) {
            ModelRoute primary = call.choice().primary();
            var messages = conversation.build(current, config, primary, call.tools(), call.recalled(), call.carried());
            AgentLoop.Request req = new AgentLoop.Request(
                    call.choice().routes(),
                    messages,
                    call.tools(),
                    config.agent().maxToolIterations(),
                    config.tools().maxResultChars(),
                    toolContext,
                    observer,
                    stream,
                    steering,
                    config.agent().reasoningTags());
            try {
                return agent.run(req);
            } catch (ProviderException e) {
                // a stateless call's conversation is the caller's: there is no stored history to compact
                if (e.kind() != ProviderException.Kind.CONTEXT_OVERFLOW || compactedOnce || call.carried() != null) {
                    throw e;
                }
                compactedOnce = true;
                InspectedTurns.overflow(e);
                if (!conversation.compact(turn.session())) throw e;
                log.info(
                        "turn {}: context overflow; compacted session {} and retrying once",
                        turn.id(),
                        turn.session().display());
                replies.send(
                        turn.adapter(),
                        turn.target(),
                        "🧹 The conversation was too long for the model, so I compacted its history.",
                        OutboundMessage.Kind.NOTICE,
                        turn.id(),
                        turn.cancel());
                InspectedTurns.retry();
            }
        }
    }

    private TurnOutcome finish(
            AgentResult result, Turn turn, ToolRegistry tools, ReplyShape shape, BlockReplies blocks) {
        CancelToken cancel = turn.cancel();
        if (blocks != null && cancel.isCancelled()) blocks.cancel();
        cancel.throwIfCancelled();
        String text = ReplySanitizer.sanitize(
                result.text(), tools.names(), s.config().get().agent().reasoningTags());
        InspectedTurns.sanitised(result.text(), text);
        String stored = turn.stateless()
                ? null
                : result.usedTools().isEmpty() || !turn.adapter().toolSummaryInTranscript()
                        ? text
                        : "[Used tools: " + String.join(", ", result.usedTools()) + "]\n" + text;
        OutboundMessage reply = shape.finalReply(turn.target(), text, turn.id(), 0);
        if (blocks != null) {
            // SPEC OUT-2: the transcript keeps the whole reply; the outbox only what no block carried
            BlockReplies.Rest rest = blocks.finish();
            if (rest.blocksSent() > 0 && rest.text().isBlank()) {
                s.store().transcripts().completeTurn(turn.session(), turn.id(), stored, InboxState.DONE);
                turn.finish(turn.id(), InboxState.DONE);
                return TurnOutcome.REPLIED;
            }
            if (rest.blocksSent() > 0) {
                reply = shape.finalReply(turn.target(), rest.text(), turn.id(), rest.blocksSent());
            }
        }
        // the on_message_sending hook runs on the delivery path (SPEC RP-1, OUT-5): a suppression is recorded
        // with the intent
        return finalReplies.commitAndSend(
                turn, reply, stored, InboxState.DONE, s.outbox().cancelOf(turn.id()));
    }
}
