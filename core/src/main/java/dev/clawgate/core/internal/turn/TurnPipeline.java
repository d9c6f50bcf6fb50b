package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.internal.agent.AgentLoop;
import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.internal.outbound.RunDeliveries;
import dev.clawgate.core.internal.prompt.PromptBody;
import dev.clawgate.core.internal.run.Dispatching;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.UserMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One turn, from the committed inbox record to the delivered reply (ARCHITECTURE: Turn): inbound hook, runtime
 * commands, model choice, history, system prompt, the agent loop, then sanitising, the sending hook and delivery. The
 * commands and the agent are the stages of a {@link TurnChain}, which holds every exit to one final state per record,
 * except a shutdown, which leaves them for the restart to run again.
 */
public final class TurnPipeline implements TurnRunner {
    private static final Logger log = LoggerFactory.getLogger(TurnPipeline.class);
    /** How many buffered group messages one turn reads (and retires); the context keeps the newest history_limit. */
    private static final int MAX_BUFFERED_READ = 10_000;

    private final TurnServices s;
    private final ConversationBuilder conversation;
    private final Replies replies;
    private final TurnMemory memory;
    private final AgentAnswer answers;
    private final TurnChain chain;
    private final ChannelReceipts receipts;
    private final dev.clawgate.core.inspect.TurnInspector inspector;

    public TurnPipeline(TurnServices services, AgentLoop agent) {
        this.receipts = ChannelReceipts.of(services);
        this.s = services;
        this.conversation = new ConversationBuilder(services);
        this.replies = new Replies(services);
        this.memory = new TurnMemory(services);
        FinalReplies finalReplies = new FinalReplies(services);
        TurnEndings endings = new TurnEndings(services, replies, finalReplies);
        this.answers = new AgentAnswer(services, agent, conversation, replies, finalReplies, endings);
        this.inspector = InspectedTurns.inspector(services);
        this.chain = new TurnChain(List.of(this::commands, this::runAgent), endings);
    }

    public TurnPipeline(TurnServices services) {
        this(services, new AgentLoop());
    }

    /** A pipeline whose model calls report each attempt (SPEC SP-4: fallback steps in the metrics). */
    public TurnPipeline(TurnServices services, dev.clawgate.core.internal.agent.ModelAttempts attempts) {
        this(services, new AgentLoop(new dev.clawgate.core.internal.agent.ModelCaller(attempts)));
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
            outcome = chain.run(turn);
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
     * {@link Dispatching#BY_RUNNER}.
     */
    public static final Dispatching DISPATCHING = Dispatching.BY_RUNNER;

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

    /** A lone runtime command ({@code /new}, {@code /model}, ...) is answered here; anything else goes on. */
    private TurnOutcome commands(Turn turn, TurnStage.Chain next) {
        Optional<RuntimeCommand> command = turn.batch().size() == 1
                ? RuntimeCommand.parse(turn.current().message().text())
                : Optional.empty();
        if (command.isEmpty()) return next.proceed(turn);
        s.store().inbox().mark(turn.id(), InboxState.DISPATCHED, null);
        return runCommand(command.get(), turn);
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
        turn.finish(turn.id(), InboxState.DONE);
        replies.send(turn.adapter(), turn.target(), reply, OutboundMessage.Kind.FINAL, turn.id(), turn.cancel());
        return TurnOutcome.REPLIED;
    }

    /** The agent answers: the last stage. */
    private TurnOutcome runAgent(Turn turn, TurnStage.Chain next) {
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
            turn.finish(current.id(), InboxState.FAILED);
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
            turn.finish(b.id(), InboxState.MERGED);
        }
        for (InboxRecord r : turn.batch().subList(0, turn.batch().size() - 1)) {
            s.store().inbox().mark(r.id(), InboxState.MERGED, "into turn " + current.id());
            turn.finish(r.id(), InboxState.MERGED);
        }
        Failpoints.hit(Failpoints.TURN_MID_RUN);
        // a stateless call neither recalls nor saves memories: it leaves nothing behind (SPEC CH-10)
        List<MemoryLine> recalled = carried == null ? memory.recallThenSave(turn.batch(), config.memory()) : List.of();

        TypingRefresh typing = receipts.typing(turn.adapter(), turn.target());
        try {
            return answers.answer(
                    turn, new AgentAnswer.ModelCall(choice, s.tools().get(), recalled, carried), typing);
        } finally {
            typing.stop();
        }
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
