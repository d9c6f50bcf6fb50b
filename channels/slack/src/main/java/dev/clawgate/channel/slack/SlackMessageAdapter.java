package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slack's outbound side (SPEC OUT-4, CH-4): one payload is one {@code chat.postMessage} with the text rendered as
 * mrkdwn, in the inbound message's thread ({@code thread_ts}) when it came in one; a reply to a top-level message that
 * {@code reply_to_mode} threads (groups by default) opens a thread under it, and every part of that reply goes there.
 * Ack reactions from receipt to final state (RP-5).
 *
 * <p>SPEC OUT-7: {@code chat.postMessage} is not idempotent and Slack offers no client message id to look a post up by,
 * so the adapter does not declare {@code reconcileUnknownSend}: a post whose answer is lost is ambiguous
 * ({@code unknown_after_send}), never sent again. A 429 means Slack did not post: the call is made once more after
 * {@code Retry-After} when that is short, else the delivery is retried after it; {@code invalid_auth},
 * {@code channel_not_found}, {@code not_in_channel}, {@code account_inactive}... are permanent. Media (OUT-13) with the
 * external upload flow ({@link FileUpload}); the typing indicator is a thread's status ({@link ThreadStatus}), as Slack
 * bots have no other.
 */
final class SlackMessageAdapter implements MessageAdapter {
    /** The longest Retry-After waited for inline before a delivery is handed back to the outbox to retry. */
    static final Duration MAX_INLINE_RATE_WAIT = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(SlackMessageAdapter.class);

    private final Map<String, SlackBot> bots;
    private final AckReactions reactions;
    private final ThreadStatus status;
    private final PostMessage posts;
    private final Set<Capability> capabilities;
    private final ConcurrentHashMap<OutboundTarget, SlackDraft> drafts = new ConcurrentHashMap<>();
    private final Scheduler previewTimer;
    private final Executor io;
    private final Duration previewInterval;

    /**
     * @param io where reaction and preview calls run, off the caller's thread
     * @param previewTimer times the live previews' edits (SPEC OUT-9)
     * @param previewInterval the least time between two edits of a preview
     */
    SlackMessageAdapter(
            Map<String, SlackBot> bots,
            Executor io,
            Duration maxInlineWait,
            Scheduler previewTimer,
            Duration previewInterval) {
        this.bots = Map.copyOf(bots);
        this.reactions = new AckReactions(io);
        this.io = io;
        this.previewTimer = previewTimer;
        this.previewInterval = previewInterval;
        this.status = new ThreadStatus(io);
        this.posts = new PostMessage(maxInlineWait, status);
        // BATCH: a reply's text and media payloads go in order, each with its own receipt (SPEC OUT-5 payloadOutcomes)
        Set<Capability> c = EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.REPLY_TO,
                Capability.THREAD,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.BATCH);
        if (bots.values().stream().anyMatch(b -> b.account.preview())) {
            c.addAll(EnumSet.of(
                    Capability.DRAFT_PREVIEW,
                    Capability.PREVIEW_FINALIZATION,
                    Capability.FINAL_EDIT,
                    Capability.PREVIEW_RECEIPT,
                    Capability.NORMAL_FALLBACK,
                    Capability.DISCARD_PENDING,
                    Capability.RETAIN_ON_AMBIGUOUS_FAILURE));
        }
        this.capabilities = Set.copyOf(c);
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public int textLimit() {
        return bots.values().stream().mapToInt(b -> b.account.textLimit()).min().orElse(SlackAccount.MAX_TEXT);
    }

    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.of(textLimit());
    }

    /** SPEC RP-3: the stored turn holds only what the user saw. */
    @Override
    public boolean toolSummaryInTranscript() {
        return false;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        SlackBot bot = bot(target);
        String channel = target.replyTarget();
        if (!EventReader.conversationId(channel)) {
            throw new DeliveryException(
                    "slack: \"" + shown(channel) + "\" is not a conversation id",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        int units = ChunkLimits.of(bot.account.textLimit()).measure().units(message.text());
        if (units > bot.account.textLimit()) {
            throw new DeliveryException(
                    "slack: a payload of " + units + " UTF-16 units is over account " + bot.account.id()
                            + "'s text_limit of " + bot.account.textLimit()
                            + "; payloads are cut before they reach the adapter",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        String threadTs = threadFor(target, message);
        SlackDraft draft = endsTheTurn(message) ? drafts.remove(target) : null;
        String draftTs = draft == null ? null : draft.finish();
        if (!message.media().isEmpty()) {
            MessageReceipt r = posts.sendMedia(bot, target, message, threadTs, cancel);
            // the reply went as a new message with its files: the draft above it goes (normalFallback)
            if (draftTs != null) deleteDraft(bot, channel, draftTs);
            return r;
        }
        if (draftTs != null && message.text().isBlank()) deleteDraft(bot, channel, draftTs);
        if (message.text().isBlank()) {
            return new MessageReceipt(null, List.of(), List.of(), threadTs, null, null, null, Instant.now(), null);
        }
        if (draftTs != null && finalEdit(bot, channel, draftTs, SlackText.render(message.text()), cancel)) {
            // previewReceipt: the draft, now the reply, is the receipt's message
            String id = channel + ":" + draftTs;
            return new MessageReceipt(
                    id,
                    List.of(id),
                    List.of(new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, id)),
                    draft.threadTs(),
                    null,
                    id,
                    id,
                    Instant.now(),
                    null);
        }
        ObjectNode params =
                SlackApi.JSON.createObjectNode().put("channel", channel).put("text", SlackText.render(message.text()));
        if (threadTs != null) params.put("thread_ts", threadTs);
        JsonNode posted = posts.post(bot, channel, params, cancel);
        status.replied(bot, channel, threadTs);
        String ts = posted.path("ts").asText(null);
        String id = ts == null ? null : channel + ":" + ts;
        List<MessageReceipt.Part> parts =
                id == null ? List.of() : List.of(new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, id));
        String replyTo = threadTs != null && target.inReplyToMessageId() != null ? target.inReplyToMessageId() : null;
        return new MessageReceipt(
                id,
                id == null ? List.of() : List.of(id),
                parts,
                threadTs,
                replyTo,
                id,
                id,
                Instant.now(),
                posted.toString());
    }

    /**
     * SPEC RP-5: the thread's status ({@code assistant.threads.setStatus}) while the turn works; none outside a thread.
     */
    @Override
    public void typing(OutboundTarget target) {
        SlackBot bot = bots.get(target.account());
        String threadTs = target.threadId();
        if (bot != null && EventReader.timestamp(threadTs) && EventReader.conversationId(target.replyTarget())) {
            status.typing(bot, target.replyTarget(), threadTs);
        }
    }

    /** A notice or a streamed block (SPEC OUT-2) comes while the run still works: the draft goes on. */
    private static boolean endsTheTurn(OutboundMessage message) {
        return message.kind() != OutboundMessage.Kind.NOTICE && message.kind() != OutboundMessage.Kind.BLOCK;
    }

    /**
     * Edits the draft into the reply (finalEdit). True when the draft now stands for the reply: edited, or the edit's
     * outcome is unknown (retainOnAmbiguousFailure: never a duplicate). False when Slack refused the edit (the draft is
     * gone, or rate limited): the draft is deleted and the reply posted normally (normalFallback). An abort before the
     * edit deletes the draft; one while it is out is ambiguous (SPEC OUT-11).
     */
    private boolean finalEdit(SlackBot bot, String channel, String draftTs, String text, CancelToken cancel)
            throws DeliveryException {
        try {
            bot.api.call(
                    "chat.update",
                    SlackApi.JSON
                            .createObjectNode()
                            .put("channel", channel)
                            .put("ts", draftTs)
                            .put("text", text),
                    cancel);
            return true;
        } catch (CancelledException e) {
            deleteDraft(bot, channel, draftTs);
            throw e;
        } catch (SlackApiException e) {
            if (e.reach() == SlackApiException.Reach.UNKNOWN && cancel.isCancelled())
                throw e.toDelivery("final edit of the draft");
            if (e.reach() == SlackApiException.Reach.UNKNOWN) {
                log.warn(
                        "slack [{}]: final edit of draft {} got no answer; keeping the draft rather than risking a "
                                + "duplicate: {}",
                        bot.account.id(),
                        draftTs,
                        e.getMessage());
                return true;
            }
            log.info(
                    "slack [{}]: final edit of draft {} failed ({}); posting the reply as a new message",
                    bot.account.id(),
                    draftTs,
                    e.getMessage());
            deleteDraft(bot, channel, draftTs);
            return false;
        }
    }

    private static void deleteDraft(SlackBot bot, String channel, String ts) {
        try {
            bot.api.call(
                    "chat.delete",
                    SlackApi.JSON.createObjectNode().put("channel", channel).put("ts", ts));
        } catch (SlackApiException e) {
            log.info("slack [{}]: draft {} not deleted: {}", bot.account.id(), ts, e.getMessage());
        }
    }

    /**
     * The agent starts on a turn: with {@code stream_mode = "preview"}, the {@code ...} draft at once (SPEC OUT-9),
     * where the reply will go: the inbound message's thread, or in a channel a new thread under it (as
     * {@code reply_to_mode}'s default threads a channel reply); a DM's draft is top-level.
     */
    @Override
    public ReplyStream openStream(OutboundTarget target) {
        SlackBot bot = bots.get(target.account());
        String channel = target.replyTarget();
        if (bot == null || !bot.account.preview() || !EventReader.conversationId(channel)) return ReplyStream.NONE;
        String threadTs = target.threadId() != null
                ? (EventReader.timestamp(target.threadId()) ? target.threadId() : null)
                : channel.startsWith("D") ? null : EventReader.ts(target.inReplyToMessageId());
        SlackDraft draft = new SlackDraft(bot, channel, threadTs, previewInterval, previewTimer, io);
        SlackDraft old = drafts.put(target, draft);
        if (old != null) discard(bot, old);
        draft.start();
        return new ReplyStream() {
            @Override
            public void delta(String text) {
                draft.delta(text);
            }

            @Override
            public void reasoning(String text) {
                draft.reasoning(text);
            }

            /** SPEC RP-4 on: the answer goes below its reasoning as a new message; the draft above goes. */
            @Override
            public void discard() {
                if (drafts.remove(target, draft)) SlackMessageAdapter.discard(bot, draft);
            }
        };
    }

    /** The turn ended; a draft no final reply took (cancelled, suppressed) is deleted (SPEC DI-5, RP-1). */
    @Override
    public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
        SlackBot bot = bots.get(target.account());
        if (bot != null && EventReader.timestamp(target.threadId())) {
            status.ended(bot, target.replyTarget(), target.threadId());
        }
        SlackDraft draft = drafts.remove(target);
        if (draft != null && bot != null) discard(bot, draft);
    }

    private static void discard(SlackBot bot, SlackDraft draft) {
        String ts = draft.finish();
        if (ts != null) deleteDraft(bot, draft.channel(), ts);
    }

    /**
     * The thread a payload goes to: the inbound message's thread; else, for a top-level message whose reply
     * {@code reply_to_mode} threads, a new thread under it, for every part (a reply is never split between a thread and
     * the channel); else none.
     */
    static String threadFor(OutboundTarget target, OutboundMessage message) {
        if (target.threadId() != null) return EventReader.timestamp(target.threadId()) ? target.threadId() : null;
        boolean threads =
                message.options().replyTo() || message.options().threading() != ReplyToMode.OFF && message.part() > 0;
        return threads ? EventReader.ts(target.inReplyToMessageId()) : null;
    }

    @Override
    public void received(OutboundTarget target) {
        SlackBot bot = bots.get(target.account());
        String ts = EventReader.ts(target.inReplyToMessageId());
        if (bot != null
                && bot.account.ackReactions()
                && ts != null
                && EventReader.conversationId(target.replyTarget())) {
            reactions.received(bot, target.replyTarget(), ts);
        }
    }

    @Override
    public void settled(OutboundTarget target, InboxState state) {
        SlackBot bot = bots.get(target.account());
        String ts = EventReader.ts(target.inReplyToMessageId());
        if (bot != null
                && bot.account.ackReactions()
                && ts != null
                && EventReader.conversationId(target.replyTarget())) {
            reactions.settled(bot, target.replyTarget(), ts, state);
        }
    }

    private SlackBot bot(OutboundTarget target) throws DeliveryException {
        SlackBot bot = bots.get(target.account());
        if (bot == null)
            throw new DeliveryException(
                    "slack has no account '" + target.account() + "'", DeliveryException.Kind.PERMANENT, null, null);
        return bot;
    }

    private static String shown(String s) {
        if (s == null) return "null";
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
