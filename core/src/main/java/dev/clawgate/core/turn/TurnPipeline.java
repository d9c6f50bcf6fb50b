package dev.clawgate.core.turn;

import dev.clawgate.core.agent.AgentLoop;
import dev.clawgate.core.agent.AgentResult;
import dev.clawgate.core.agent.ModelRoute;
import dev.clawgate.core.agent.Steering;
import dev.clawgate.core.agent.StepObserver;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.command.RuntimeCommand;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.dispatch.TurnRunner;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.inbound.PromptBody;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryScopes;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.RunDeliveries;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.render.BlockStreaming;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.sanitize.ReplySanitizer;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.UserMessage;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One turn, from the committed inbox record to the delivered reply (ARCHITECTURE: Turn): inbound hook, runtime
 * commands, model choice, history, system prompt, the agent loop, then sanitising, the sending hook and delivery. Every
 * exit leaves the record in a final state, except a shutdown, which leaves it for the restart to run again.
 */
public final class TurnPipeline implements TurnRunner {
    private static final Logger log = LoggerFactory.getLogger(TurnPipeline.class);
    /** How many buffered group messages one turn reads (and retires); the context keeps the newest history_limit. */
    private static final int MAX_BUFFERED_READ = 10_000;

    private final TurnServices s;
    private final AgentLoop agent;
    private final ConversationBuilder conversation;
    private final Replies replies;
    private final FinalReplies finalReplies;
    private final TurnMemory memory;
    private final ChannelReceipts receipts;
    private final dev.clawgate.core.inspect.TurnInspector inspector;

    public TurnPipeline(TurnServices services, AgentLoop agent) {
        this.receipts = ChannelReceipts.of(services);
        this.s = services;
        this.agent = agent;
        this.conversation = new ConversationBuilder(services);
        this.replies = new Replies(services);
        this.finalReplies = new FinalReplies(services);
        this.memory = new TurnMemory(services);
        this.inspector = InspectedTurns.inspector(services);
    }

    public TurnPipeline(TurnServices services) {
        this(services, new AgentLoop());
    }

    /** A pipeline whose model calls report each attempt (SPEC SP-4: fallback steps in the metrics). */
    public TurnPipeline(TurnServices services, dev.clawgate.core.agent.ModelAttempts attempts) {
        this(services, new AgentLoop(new dev.clawgate.core.agent.ModelCaller(attempts)));
    }

    @Override
    public void run(RunHandle handle) {
        Instant start = s.clock().instant();
        ClawgateConfig config = s.config().get();
        List<InboxRecord> batch = applyInboundHook(handle.records());
        if (batch.isEmpty()) return;
        InboxRecord current = batch.getLast();
        InboundMessage msg = current.message();
        Optional<MessageAdapter> adapter = s.channels().apply(msg.channel()).map(Channel::messageAdapter);
        if (adapter.isEmpty()) {
            log.error("turn {}: channel {} is not running; the message stays failed", current.id(), msg.channel());
            s.store().inbox().mark(current.id(), InboxState.FAILED, "channel not running: " + msg.channel());
            return;
        }
        Turn turn = new Turn(batch, config, adapter.get(), handle);
        // SPEC OP-5, OP-6: the seeds' line; what the user wrote only at DEBUG (logs get kept and shipped)
        String from = msg.senderName() != null ? msg.senderName() : msg.sender();
        log.info(
                "💬 [{}] from {} ({} chars{})",
                msg.channel(),
                from,
                msg.text().length(),
                msg.attachments().isEmpty() ? "" : ", " + msg.attachments().size() + " attachment(s)");
        log.debug("💬 [{}] from {}: {}", msg.channel(), from, preview(msg.text()));

        var recording = InspectedTurns.begin(inspector, turn);
        TurnOutcome outcome = TurnOutcome.FAILED;
        // SPEC OUT-11: the run's abort reaches its sends, and cancels those still waiting in the outbox
        RunDeliveries deliveries = s.outbox().watch(current.id(), handle.cancel());
        try {
            Optional<RuntimeCommand> command = batch.size() == 1 ? RuntimeCommand.parse(msg.text()) : Optional.empty();
            if (command.isPresent()) {
                s.store().inbox().mark(current.id(), InboxState.DISPATCHED, null);
                outcome = runCommand(command.get(), turn);
            } else {
                outcome = runAgent(turn);
            }
        } catch (CancelledException e) {
            outcome = cancelled(turn, e.getMessage());
        } catch (RuntimeException e) {
            log.error("turn {} failed", current.id(), e);
            failTurn(turn, e);
        } finally {
            deliveries.close();
            turn.adapter().turnEnded(turn.target(), current.id(), outcome);
            InspectedTurns.end(inspector, recording, turn, outcome);
            log.info(
                    "turn {} session={} msg={} outcome={} in {} ms",
                    current.id(),
                    turn.session().display(),
                    msg.id(),
                    outcome,
                    Duration.between(start, s.clock().instant()).toMillis());
        }
    }

    /**
     * The run marks its records {@code DISPATCHED} itself: an agent turn together with its user messages, a command
     * before it runs; a record dropped or failed before either goes straight to its final state. Wire it with
     * {@link dev.clawgate.core.dispatch.Dispatcher.Dispatching#BY_RUNNER}.
     */
    public static final dev.clawgate.core.dispatch.Dispatcher.Dispatching DISPATCHING =
            dev.clawgate.core.dispatch.Dispatcher.Dispatching.BY_RUNNER;

    /** SPEC RP-5: the receipts of this pipeline's channels, for the dispatcher to hold; the turn's typing too. */
    public ChannelReceipts receipts() {
        return receipts;
    }

    private List<InboxRecord> applyInboundHook(List<InboxRecord> records) {
        List<InboxRecord> kept = new ArrayList<>();
        for (InboxRecord r : records) {
            InboundHook.Decision d = s.inboundHook().onMessageReceived(r.message());
            switch (d) {
                case InboundHook.Continue c ->
                    kept.add(
                            new InboxRecord(r.id(), c.message(), r.session(), r.state(), r.attempts(), r.recordedAt()));
                case InboundHook.Cancel c -> {
                    log.info("inbox {} dropped by on_message_received: {}", r.id(), c.reason());
                    s.store().inbox().mark(r.id(), InboxState.DROPPED_BY_HOOK, c.reason());
                }
            }
        }
        return kept;
    }

    private TurnOutcome runCommand(RuntimeCommand command, Turn turn) {
        CommandHandler handler = new CommandHandler(
                s.store(),
                s.providers().get(),
                s.sessionStatus(),
                s.clock(),
                () -> s.prompts().invalidate(turn.session()));
        String reply = handler.handle(command, turn.session(), turn.config(), turn.cancel());
        s.store().transcripts().completeTurn(turn.session(), turn.id(), null, InboxState.DONE);
        replies.send(turn.adapter(), turn.target(), reply, OutboundMessage.Kind.FINAL, turn.id(), turn.cancel());
        return TurnOutcome.REPLIED;
    }

    private TurnOutcome runAgent(Turn turn) {
        InboxRecord current = turn.current();
        SessionKey session = turn.session();
        ClawgateConfig config = turn.config();
        ProviderDirectory providers = s.providers().get();
        ModelChoice choice = ModelSelector.choose(
                current.message().text(),
                s.store()
                        .transcripts()
                        .setting(session, CommandHandler.SETTING_MODEL)
                        .map(v -> ModelSelector.parseOverride(v, providers)),
                config.agent(),
                config.routes(),
                providers);
        if (!choice.available()) {
            s.store().inbox().mark(current.id(), InboxState.FAILED, "no model: " + choice.problem());
            replies.send(
                    turn.adapter(),
                    turn.target(),
                    choice.problem(),
                    OutboundMessage.Kind.ERROR,
                    current.id(),
                    turn.cancel());
            return TurnOutcome.FAILED;
        }
        boolean group = current.message().chatType() == ChatType.GROUP;
        List<InboxRecord> buffered = group ? s.store().inbox().buffered(session, MAX_BUFFERED_READ) : List.of();
        int limit = config.inbound().groupHistoryLimitFor(current.message().channel());
        List<InboundMessage> pending = buffered.subList(Math.max(0, buffered.size() - limit), buffered.size()).stream()
                .map(InboxRecord::message)
                .toList();
        List<String> dropped = turn.handle().droppedSummaries();
        List<UserMessage> userMessages = new ArrayList<>(turn.batch().size());
        for (InboxRecord r : turn.batch()) {
            // SPEC MD-2, IN-6: sender labels in groups and, on the current message, the pending history
            String content = PromptBody.body(r.message(), r == current ? pending : List.of(), group);
            if (r == current && !dropped.isEmpty()) content = droppedNote(dropped) + content;
            userMessages.add(new UserMessage(r.id(), content));
        }
        // SPEC CH-10 stateless call: the request's own conversation, nothing written to the session's history
        Optional<List<ChatMessage>> carriedBefore = turn.adapter().carriedConversation(turn.target());
        List<ChatMessage> carried = null;
        if (carriedBefore.isPresent()) {
            carried = new ArrayList<>(carriedBefore.get());
            for (UserMessage u : userMessages) carried.add(ChatMessage.user(u.content()));
            s.store().inbox().mark(current.id(), InboxState.DISPATCHED, null);
        } else {
            // SPEC IN-4: the attempt is counted in the transaction that starts the transcript's turn (dispatchesItself)
            s.store().transcripts().dispatchWithUserMessages(session, userMessages);
        }
        // once in the transcript, buffered messages are never pending again
        for (InboxRecord b : buffered) {
            s.store().inbox().mark(b.id(), InboxState.MERGED, "context for turn " + current.id());
        }
        for (InboxRecord r : turn.batch().subList(0, turn.batch().size() - 1)) {
            s.store().inbox().mark(r.id(), InboxState.MERGED, "into turn " + current.id());
        }
        Failpoints.hit(Failpoints.TURN_MID_RUN);
        // a stateless call neither recalls nor saves memories: it leaves nothing behind (SPEC CH-10)
        List<MemoryLine> recalled = carried == null ? memory.recallThenSave(turn.batch(), config.memory()) : List.of();

        TypingRefresh typing = receipts.typing(turn.adapter(), turn.target());
        try {
            return answer(turn, new ModelCall(choice, s.tools().get(), recalled, carried), typing);
        } finally {
            typing.stop();
        }
    }

    /** What the agent loop is called with, beside the turn: the model, the tools, the memory and any carried chat. */
    private record ModelCall(
            ModelChoice choice, ToolRegistry tools, List<MemoryLine> recalled, List<ChatMessage> carried) {}

    private TurnOutcome answer(Turn turn, ModelCall call, TypingRefresh typing) {
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
            return providerFailed(e, turn);
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
                return TurnOutcome.REPLIED;
            }
            if (rest.blocksSent() > 0) {
                reply = shape.finalReply(turn.target(), rest.text(), turn.id(), rest.blocksSent());
            }
        }
        // the on_message_sending hook runs on the delivery path (SPEC RP-1, OUT-5): a suppression is recorded
        // with the intent
        return finalReplies.commitAndSend(
                turn.current(),
                turn.adapter(),
                reply,
                stored,
                InboxState.DONE,
                s.outbox().cancelOf(turn.id()));
    }

    private TurnOutcome providerFailed(ProviderException e, Turn turn) {
        log.warn("turn {}: model call failed: {} {}", turn.id(), e.kind(), UserFacingError.redact(e.getMessage()));
        if (e.kind() == ProviderException.Kind.VISION_UNSUPPORTED) {
            for (InboxRecord r : turn.batch()) s.store().transcripts().removeUserMessage(turn.session(), r.id());
            s.store().inbox().mark(turn.id(), InboxState.FAILED, "vision unsupported; turn rolled back");
            replies.send(
                    turn.adapter(),
                    turn.target(),
                    UserFacingError.of(e),
                    OutboundMessage.Kind.ERROR,
                    turn.id(),
                    turn.cancel());
            return TurnOutcome.FAILED;
        }
        // HI-6: the error turn is committed with its reply's intent, so a crash cannot lose or repeat it
        return failWith(turn, UserFacingError.of(e), "[Task failed]", s.outbox().cancelOf(turn.id()));
    }

    private void failTurn(Turn turn, RuntimeException e) {
        failWith(turn, UserFacingError.of(e), "[Task failed]", s.outbox().cancelOf(turn.id()));
    }

    /** Ends the turn {@code FAILED} with an error reply, and {@code stored} in the transcript unless stateless. */
    private TurnOutcome failWith(Turn turn, String text, String stored, CancelToken cancel) {
        OutboundMessage reply = new OutboundMessage(turn.target(), text, OutboundMessage.Kind.ERROR, turn.id());
        return finalReplies.commitAndSend(
                turn.current(), turn.adapter(), reply, turn.stateless() ? null : stored, InboxState.FAILED, cancel);
    }

    private TurnOutcome cancelled(Turn turn, String reason) {
        if (RunHandle.REASON_SHUTDOWN.equals(reason)) {
            log.info("turn {} cut by shutdown; it runs again after the restart", turn.id());
            return TurnOutcome.CANCELLED;
        }
        if (RunHandle.REASON_TIMEOUT.equals(reason)) {
            long secs = turn.config().agent().turnBudgetSecs();
            failWith(
                    turn,
                    "⏱️ That took too long (over " + secs + " s), so I stopped." + " Please try again or ask for less.",
                    "[Task timed out]",
                    CancelToken.none());
            return TurnOutcome.TIMED_OUT;
        }
        for (InboxRecord r : turn.batch()) s.store().inbox().mark(r.id(), InboxState.CANCELLED, reason);
        log.info("turn {} cancelled: {}", turn.id(), reason);
        return TurnOutcome.CANCELLED;
    }

    /** SPEC DI-3 drop=summarize: what a full queue dropped, handed to the next turn. */
    static String droppedNote(List<String> summaries) {
        return "[While I was busy, " + summaries.size() + " earlier message"
                + (summaries.size() == 1 ? " was" : "s were") + " dropped from a full queue:\n"
                + String.join("\n", summaries.stream().map(x -> "- " + x).toList()) + "]\n\n";
    }

    /** The user message as history keeps it: the text, then a marker per attachment. */
    static String userContent(InboundMessage m) {
        return PromptBody.withAttachmentMarkers(m);
    }

    private static String preview(String text) {
        String one = text.replace('\n', ' ');
        return one.length() > 80 ? one.substring(0, 80) + "…" : one;
    }
}
