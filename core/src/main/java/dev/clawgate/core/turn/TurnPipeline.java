package dev.clawgate.core.turn;

import dev.clawgate.core.agent.AgentLoop;
import dev.clawgate.core.agent.AgentResult;
import dev.clawgate.core.agent.ModelRoute;
import dev.clawgate.core.agent.StepObserver;
import dev.clawgate.core.agent.Steering;
import dev.clawgate.core.model.ChatMessage;
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
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One turn, from the committed inbox record to the delivered reply (ARCHITECTURE: Turn):
 * inbound hook, runtime commands, model choice, history, system prompt, the agent loop, then
 * sanitising, the sending hook and delivery. Every exit leaves the record in a final state,
 * except a shutdown, which leaves it for the restart to run again.
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

    public TurnPipeline(TurnServices services, AgentLoop agent) {
        this.s = services;
        this.agent = agent;
        this.conversation = new ConversationBuilder(services);
        this.replies = new Replies(services);
        this.finalReplies = new FinalReplies(services);
        this.memory = new TurnMemory(services);
    }

    public TurnPipeline(TurnServices services) {
        this(services, new AgentLoop());
    }

    @Override
    public void run(RunHandle handle) {
        Instant start = s.clock().instant();
        ClawgateConfig config = s.config().get();
        List<InboxRecord> batch = applyInboundHook(handle.records());
        if (batch.isEmpty()) return;
        InboxRecord current = batch.get(batch.size() - 1);
        InboundMessage msg = current.message();
        SessionKey session = current.session();
        OutboundTarget target = OutboundTarget.replyTo(msg);
        Optional<MessageAdapter> adapter = s.channels().apply(msg.channel()).map(Channel::messageAdapter);
        if (adapter.isEmpty()) {
            log.error("turn {}: channel {} is not running; the message stays failed", current.id(), msg.channel());
            s.store().markInbox(current.id(), InboxState.FAILED, "channel not running: " + msg.channel());
            return;
        }
        log.info("💬 [{}] from {}: {}", msg.channel(), msg.senderName() != null ? msg.senderName() : msg.sender(), preview(msg.text()));

        TurnOutcome outcome = TurnOutcome.FAILED;
        // SPEC OUT-11: the run's abort reaches its sends, and cancels those still waiting in the outbox
        RunDeliveries deliveries = s.outbox().watch(current.id(), handle.cancel());
        try {
            Optional<RuntimeCommand> command = batch.size() == 1 ? RuntimeCommand.parse(msg.text()) : Optional.empty();
            if (command.isPresent()) {
                s.store().markInbox(current.id(), InboxState.DISPATCHED, null);
                outcome = runCommand(command.get(), current, config, adapter.get(), handle.cancel());
            } else {
                outcome = runAgent(batch, config, adapter.get(), handle);
            }
        } catch (CancelledException e) {
            outcome = cancelled(handle, batch, e.getMessage(), adapter.get(), config);
        } catch (RuntimeException e) {
            log.error("turn {} failed", current.id(), e);
            failTurn(current, session, e, adapter.get(), target, handle.cancel());
        } finally {
            deliveries.close();
            adapter.get().turnEnded(target, current.id(), outcome);
            log.info("turn {} session={} msg={} outcome={} in {} ms", current.id(), session.display(), msg.id(), outcome,
                    Duration.between(start, s.clock().instant()).toMillis());
        }
    }

    /**
     * The run marks its records {@code DISPATCHED} itself: an agent turn together with its user messages,
     * a command before it runs; a record dropped or failed before either goes straight to its final state.
     */
    @Override
    public boolean dispatchesItself() {
        return true;
    }

    /** SPEC RP-5: the channel shows receipt (👀) as soon as the message is admitted, before its turn starts. */
    @Override
    public void admitted(InboxRecord record) {
        s.channels().apply(record.message().channel()).map(Channel::messageAdapter)
                .ifPresent(a -> a.received(OutboundTarget.replyTo(record.message())));
    }

    /** SPEC RP-5: the receipt shown on admission takes the record's final state (merged: its turn's), whenever it comes. */
    @Override
    public void settled(InboxRecord record, InboxState state) {
        s.channels().apply(record.message().channel()).map(Channel::messageAdapter)
                .ifPresent(a -> a.settled(OutboundTarget.replyTo(record.message()), state));
    }

    private List<InboxRecord> applyInboundHook(List<InboxRecord> records) {
        List<InboxRecord> kept = new ArrayList<>();
        for (InboxRecord r : records) {
            InboundHook.Decision d = s.inboundHook().onMessageReceived(r.message());
            switch (d) {
                case InboundHook.Continue c -> kept.add(new InboxRecord(r.id(), c.message(), r.session(), r.state(), r.attempts(), r.recordedAt()));
                case InboundHook.Cancel c -> {
                    log.info("inbox {} dropped by on_message_received: {}", r.id(), c.reason());
                    s.store().markInbox(r.id(), InboxState.DROPPED_BY_HOOK, c.reason());
                }
            }
        }
        return kept;
    }

    private TurnOutcome runCommand(RuntimeCommand command, InboxRecord current, ClawgateConfig config, MessageAdapter adapter,
                                   CancelToken cancel) {
        CommandHandler handler = new CommandHandler(s.store(), s.providers().get(), s.queueDepth(),
                () -> s.prompts().invalidate(current.session()));
        String reply = handler.handle(command, current.session(), config, cancel);
        s.store().completeTurn(current.session(), current.id(), null, InboxState.DONE);
        replies.send(adapter, OutboundTarget.replyTo(current.message()), reply, OutboundMessage.Kind.FINAL, current.id(), cancel);
        return TurnOutcome.REPLIED;
    }

    private TurnOutcome runAgent(List<InboxRecord> batch, ClawgateConfig config, MessageAdapter adapter, RunHandle handle) {
        CancelToken cancel = handle.cancel();
        List<String> dropped = handle.droppedSummaries();
        InboxRecord current = batch.get(batch.size() - 1);
        SessionKey session = current.session();
        OutboundTarget target = OutboundTarget.replyTo(current.message());
        ProviderDirectory providers = s.providers().get();
        ModelChoice choice = ModelSelector.choose(current.message().text(),
                s.store().sessionSetting(session, CommandHandler.SETTING_MODEL).map(v -> ModelSelector.parseOverride(v, providers)),
                config.agent(), config.routes(), providers);
        if (!choice.available()) {
            s.store().markInbox(current.id(), InboxState.FAILED, "no model: " + choice.problem());
            replies.send(adapter, target, choice.problem(), OutboundMessage.Kind.ERROR, current.id(), cancel);
            return TurnOutcome.FAILED;
        }
        boolean group = current.message().chatType() == ChatType.GROUP;
        List<InboxRecord> buffered = group ? s.store().bufferedInbox(session, MAX_BUFFERED_READ) : List.of();
        int limit = config.inbound().groupHistoryLimitFor(current.message().channel());
        List<InboundMessage> pending = buffered.subList(Math.max(0, buffered.size() - limit), buffered.size()).stream()
                .map(InboxRecord::message).toList();
        List<UserMessage> userMessages = new ArrayList<>(batch.size());
        for (InboxRecord r : batch) {
            // SPEC MD-2, IN-6: the body carries sender labels in groups and, on the current message, the pending history
            String content = PromptBody.body(r.message(), r == current ? pending : List.of(), group);
            if (r == current && !dropped.isEmpty()) content = droppedNote(dropped) + content;
            userMessages.add(new UserMessage(r.id(), content));
        }
        // SPEC IN-4: the attempt is counted in the transaction that starts the transcript's turn (dispatchesItself)
        s.store().dispatchWithUserMessages(session, userMessages);
        // once in the transcript, buffered messages are never pending again
        for (InboxRecord b : buffered) s.store().markInbox(b.id(), InboxState.MERGED, "context for turn " + current.id());
        for (InboxRecord r : batch.subList(0, batch.size() - 1)) {
            s.store().markInbox(r.id(), InboxState.MERGED, "into turn " + current.id());
        }
        Failpoints.hit(Failpoints.TURN_MID_RUN);
        List<MemoryLine> recalled = memory.recallThenSave(batch, config.memory());

        ToolRegistry tools = s.tools().get();
        TypingRefresh typing = TypingRefresh.start(s.scheduler(), adapter, target);
        try {
            return answer(batch, config, adapter, handle, choice, tools, typing, recalled);
        } finally {
            typing.stop();
        }
    }

    private TurnOutcome answer(List<InboxRecord> batch, ClawgateConfig config, MessageAdapter adapter, RunHandle handle, ModelChoice choice,
                               ToolRegistry tools, TypingRefresh typing, List<MemoryLine> recalled) {
        CancelToken cancel = handle.cancel();
        InboxRecord current = batch.get(batch.size() - 1);
        SessionKey session = current.session();
        OutboundTarget target = OutboundTarget.replyTo(current.message());
        String reasoning = s.store().sessionSetting(session, CommandHandler.SETTING_REASONING).orElse("off");
        ReplyShape shape = ReplyShape.of(config, current.message(), batch.size(), choice.primary());
        // SPEC OUT-2: with block streaming on, the text goes out as blocks instead of into a preview (no draft is shown)
        BlockReplies blocks = blockReplies(config, adapter, target, shape, current.id(), cancel);
        ReplyStream preview = blocks == null ? adapter.openStream(target) : ReplyStream.NONE;
        ReplyStream stream = blocks != null ? blocks : preview;
        // SPEC RP-4 stream: reasoning goes into the draft preview where the channel has one; inline <think> text too
        boolean streamReasoning = "stream".equals(reasoning) && blocks == null;
        // SPEC RP-4 on with block streaming: the reasoning so far goes out before the first block, not after the answer
        StringBuilder thought = new StringBuilder();
        boolean reasoningFirst = "on".equals(reasoning) && blocks != null;
        AtomicBoolean reasoningSent = new AtomicBoolean();
        if (reasoningFirst) blocks.beforeFirstBlock(() -> reasoningSent.set(sendReasoning(thought.toString(), adapter, target, current.id(), cancel)));
        StreamingReply streaming = new StreamingReply(stream, tools.names(),
                streamReasoning ? preview::reasoning : reasoningFirst ? thought::append : t -> { });
        StepObserver observer = new StepObserver() {
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
                if (config.agent().showToolCalls()) replies.announceTool(adapter, target, call, current.id(), cancel);
            }
        };
        ToolContext toolContext = new ToolContext(config.agent().workspace(), session, cancel,
                new TurnMessages(s, finalReplies, current.id(), target, s.outbox().cancelOf(current.id())),
                config.memory().enabled() ? s.memory() : Memory.NONE, MemoryScopes.of(current.message(), session), current.message());
        AgentResult result;
        try {
            result = runWithCompaction(choice, current, config, tools, toolContext, observer, stream != ReplyStream.NONE,
                    adapter, target, cancel, steering(handle, current), recalled);
        } catch (ProviderException e) {
            if (blocks != null) blocks.cancel();
            return providerFailed(e, batch, adapter, target, cancel);
        } catch (RuntimeException e) {
            if (blocks != null) blocks.cancel();
            throw e;
        } finally {
            streaming.finish();
        }
        typing.stop();
        // SPEC RP-4 on: the reasoning as a separate message before the answer
        if ("on".equals(reasoning) && !reasoningSent.get() && result.reasoning() != null && !result.reasoning().isBlank()
                && !cancel.isCancelled()) {
            preview.discard();
            sendReasoning(result.reasoning(), adapter, target, current.id(), cancel);
        }
        return finish(result, current, adapter, target, tools, cancel, shape, blocks);
    }

    /** SPEC RP-4 on: the reasoning as a notice of its own; false when there was none. */
    private boolean sendReasoning(String reasoning, MessageAdapter adapter, OutboundTarget target, long turnId, CancelToken cancel) {
        if (reasoning == null || reasoning.isBlank() || cancel.isCancelled()) return false;
        replies.send(adapter, target, "💭 " + reasoning.strip(), OutboundMessage.Kind.NOTICE, turnId, cancel);
        return true;
    }

    private BlockReplies blockReplies(ClawgateConfig config, MessageAdapter adapter, OutboundTarget target, ReplyShape shape, long turnId,
                                      CancelToken cancel) {
        BlockStreaming settings = config.channel(target.channel()).output().blockStreaming();
        return settings == null ? null : new BlockReplies(settings, s.scheduler(), s.delivery(), adapter, target, shape, turnId, cancel);
    }

    private AgentResult runWithCompaction(ModelChoice choice, InboxRecord current, ClawgateConfig config, ToolRegistry tools,
                                          ToolContext toolContext, StepObserver observer, boolean stream,
                                          MessageAdapter adapter, OutboundTarget target, CancelToken cancel, Steering steering,
                                          List<MemoryLine> recalled)
            throws ProviderException {
        boolean compactedOnce = false;
        while (true) {
            ModelRoute primary = choice.primary();
            var messages = conversation.build(current, config, primary, tools, recalled);
            AgentLoop.Request req = new AgentLoop.Request(choice.routes(), messages, tools, config.agent().maxToolIterations(),
                    config.tools().maxResultChars(), toolContext, observer, stream, steering);
            try {
                return agent.run(req);
            } catch (ProviderException e) {
                if (e.kind() != ProviderException.Kind.CONTEXT_OVERFLOW || compactedOnce) throw e;
                compactedOnce = true;
                if (!conversation.compact(current.session())) throw e;
                log.info("turn {}: context overflow; compacted session {} and retrying once", current.id(), current.session().display());
                replies.send(adapter, target, "🧹 The conversation was too long for the model, so I compacted its history.",
                        OutboundMessage.Kind.NOTICE, current.id(), cancel);
            }
        }
    }

    private TurnOutcome finish(AgentResult result, InboxRecord current, MessageAdapter adapter, OutboundTarget target,
                               ToolRegistry tools, CancelToken cancel, ReplyShape shape, BlockReplies blocks) {
        if (blocks != null && cancel.isCancelled()) blocks.cancel();
        cancel.throwIfCancelled();
        String text = ReplySanitizer.sanitize(result.text(), tools.names());
        String stored = result.usedTools().isEmpty() || "telegram".equals(target.channel())
                ? text : "[Used tools: " + String.join(", ", result.usedTools()) + "]\n" + text;
        OutboundMessage reply = shape.finalReply(target, text, current.id(), 0);
        if (blocks != null) {
            // SPEC OUT-2: the transcript keeps the whole reply; the outbox only what no block carried
            BlockReplies.Rest rest = blocks.finish();
            if (rest.blocksSent() > 0 && rest.text().isBlank()) {
                s.store().completeTurn(current.session(), current.id(), stored, InboxState.DONE);
                return TurnOutcome.REPLIED;
            }
            if (rest.blocksSent() > 0) reply = shape.finalReply(target, rest.text(), current.id(), rest.blocksSent());
        }
        // the on_message_sending hook runs on the delivery path (SPEC RP-1, OUT-5), so a suppression is recorded with the intent
        return finalReplies.commitAndSend(current, adapter, reply, stored, InboxState.DONE, s.outbox().cancelOf(current.id()));
    }

    private TurnOutcome providerFailed(ProviderException e, List<InboxRecord> batch, MessageAdapter adapter, OutboundTarget target,
                                       CancelToken cancel) {
        InboxRecord current = batch.get(batch.size() - 1);
        log.warn("turn {}: model call failed: {} {}", current.id(), e.kind(), UserFacingError.redact(e.getMessage()));
        if (e.kind() == ProviderException.Kind.VISION_UNSUPPORTED) {
            for (InboxRecord r : batch) s.store().removeUserMessage(current.session(), r.id());
            s.store().markInbox(current.id(), InboxState.FAILED, "vision unsupported; turn rolled back");
            replies.send(adapter, target, UserFacingError.of(e), OutboundMessage.Kind.ERROR, current.id(), cancel);
            return TurnOutcome.FAILED;
        }
        // HI-6: the error turn is committed with its reply's intent, so a crash cannot lose or repeat it
        return finalReplies.commitAndSend(current, adapter, new OutboundMessage(target, UserFacingError.of(e), OutboundMessage.Kind.ERROR,
                current.id()), "[Task failed]", InboxState.FAILED, s.outbox().cancelOf(current.id()));
    }

    private void failTurn(InboxRecord current, SessionKey session, RuntimeException e, MessageAdapter adapter, OutboundTarget target,
                          CancelToken cancel) {
        finalReplies.commitAndSend(current, adapter, new OutboundMessage(target, UserFacingError.of(e), OutboundMessage.Kind.ERROR,
                current.id()), "[Task failed]", InboxState.FAILED, s.outbox().cancelOf(current.id()));
    }

    private TurnOutcome cancelled(RunHandle handle, List<InboxRecord> batch, String reason, MessageAdapter adapter, ClawgateConfig config) {
        InboxRecord current = batch.get(batch.size() - 1);
        if (RunHandle.REASON_SHUTDOWN.equals(reason)) {
            log.info("turn {} cut by shutdown; it runs again after the restart", current.id());
            return TurnOutcome.CANCELLED;
        }
        if (RunHandle.REASON_TIMEOUT.equals(reason)) {
            long secs = config.agent().turnBudgetSecs();
            finalReplies.commitAndSend(current, adapter, new OutboundMessage(OutboundTarget.replyTo(current.message()),
                    "⏱️ That took too long (over " + secs + " s), so I stopped. Please try again or ask for less.",
                    OutboundMessage.Kind.ERROR, current.id()), "[Task timed out]", InboxState.FAILED, CancelToken.none());
            return TurnOutcome.TIMED_OUT;
        }
        for (InboxRecord r : batch) s.store().markInbox(r.id(), InboxState.CANCELLED, reason);
        log.info("turn {} cancelled: {}", current.id(), reason);
        return TurnOutcome.CANCELLED;
    }

    /**
     * SPEC DI-3 steer: messages offered to the run are recorded as their own user messages
     * (inbox {@code merged}) when the loop takes them, and answered by this run's reply.
     */
    private Steering steering(RunHandle handle, InboxRecord current) {
        return new Steering() {
            @Override
            public boolean pending() {
                return handle.steer().hasPending();
            }

            @Override
            public List<ChatMessage> take() {
                List<ChatMessage> out = new ArrayList<>();
                boolean group = current.message().chatType() == ChatType.GROUP;
                for (InboxRecord r : handle.steer().drain()) {
                    String content = PromptBody.body(r.message(), List.of(), group);
                    s.store().appendUserMessage(current.session(), r.id(), content);
                    s.store().markInbox(r.id(), InboxState.MERGED, "steered into turn " + current.id());
                    out.add(ChatMessage.user(content));
                }
                return out;
            }
        };
    }

    /** SPEC DI-3 drop=summarize: what a full queue dropped, handed to the next turn. */
    static String droppedNote(List<String> summaries) {
        return "[While I was busy, " + summaries.size() + " earlier message" + (summaries.size() == 1 ? " was" : "s were")
                + " dropped from a full queue:\n" + String.join("\n", summaries.stream().map(x -> "- " + x).toList()) + "]\n\n";
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
