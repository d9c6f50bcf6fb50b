package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Matrix's outbound side (SPEC OUT-4, CH-6): one payload is one room event, sent with a transaction id that follows
 * from the outbox entry ({@link RoomSender#txnId}), so a resend after a crash is the same event while the homeserver
 * remembers the transaction, and reconcile ({@link SentLookup}) finds or rules out an earlier send (SPEC OUT-7,
 * OUT-12). Threads by {@code m.thread}, rich replies by {@code m.in_reply_to}, media through the media repository, live
 * preview by {@code m.replace} edits, ack reactions by {@code m.annotation}, typing notifications. {@code M_FORBIDDEN}
 * and {@code M_UNKNOWN_TOKEN} are permanent; a 429 waits its {@code retry_after_ms}.
 */
final class MatrixMessageAdapter implements MessageAdapter {
    private static final Logger log = LoggerFactory.getLogger(MatrixMessageAdapter.class);
    static final Duration MAX_INLINE_RATE_WAIT = Duration.ofSeconds(5);
    /** Typing lasts a little longer than core's 4 s refresh, and lapses by itself once the refreshes stop. */
    static final int TYPING_TIMEOUT_MS = 6000;

    private final MatrixBot bot;
    private final RoomSender sender;
    private final SentLookup lookup;
    private final AckReactions reactions;
    private final Set<Capability> capabilities;
    private final ConcurrentHashMap<OutboundTarget, MatrixDraft> drafts = new ConcurrentHashMap<>();
    private final Scheduler previewTimer;
    private final Executor io;
    private final Duration previewInterval;

    MatrixMessageAdapter(
            MatrixBot bot, Executor io, Duration maxInlineWait, Scheduler previewTimer, Duration previewInterval) {
        this.bot = bot;
        this.sender = new RoomSender(bot, maxInlineWait);
        this.lookup = new SentLookup(bot);
        this.reactions = new AckReactions(sender, io);
        this.io = io;
        this.previewTimer = previewTimer;
        this.previewInterval = previewInterval;
        Set<Capability> c = EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.REPLY_TO,
                Capability.THREAD,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND);
        if (bot.account.preview()) {
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
        return bot.account.textLimit();
    }

    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.of(textLimit());
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        String room = room(target);
        int units = chunkLimits().measure().units(message.text());
        if (units > textLimit()) {
            throw new DeliveryException(
                    "matrix: a payload of " + units + " characters is over text_limit "
                            + textLimit()
                            + "; payloads are cut before they reach the adapter",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        MatrixDraft draft = endsTheTurn(message) ? drafts.remove(target) : null;
        String draftId = draft == null ? null : draft.finish();
        if (draftId != null && message.text().isBlank() && message.media().isEmpty()) sender.redact(room, draftId);
        if (message.text().isBlank() && message.media().isEmpty()) {
            return new MessageReceipt(
                    null, List.of(), List.of(), target.threadId(), null, null, null, Instant.now(), null);
        }
        String txnId = sender.txnId(message);
        boolean edited = draftId != null && message.media().isEmpty();
        if (edited && finalEdit(room, draftId, txnId, message.text(), cancel)) {
            return receipt(
                    draftId, MessageReceipt.PartKind.TEXT, target, null); // previewReceipt: the draft is the reply
        }
        ObjectNode content = sender.content(message, cancel);
        boolean replyTo = message.options().replyTo();
        RoomSender.relate(content, target, replyTo);
        // the marker is the payload's identity for reconcile; a fallback after a refused edit takes a transaction of
        // its
        // own, since a homeserver may answer a repeated transaction with the refusal it remembers
        content.put(RoomSender.MARKER, txnId);
        String id = sender.send(room, "m.room.message", edited ? txnId + "-f" : txnId, content, cancel);
        String answered = replyTo || target.threadId() != null ? target.inReplyToMessageId() : null;
        return receipt(
                id,
                message.media().isEmpty() ? MessageReceipt.PartKind.TEXT : MessageReceipt.PartKind.MEDIA,
                target,
                answered);
    }

    private static MessageReceipt receipt(
            String id, MessageReceipt.PartKind kind, OutboundTarget target, String replyTo) {
        return new MessageReceipt(
                id,
                List.of(id),
                List.of(new MessageReceipt.Part(kind, id)),
                target.threadId(),
                replyTo,
                id,
                id,
                Instant.now(),
                null);
    }

    /** A notice or a streamed block (SPEC OUT-2) comes while the run still works: the draft goes on. */
    private static boolean endsTheTurn(OutboundMessage message) {
        return message.kind() != OutboundMessage.Kind.NOTICE && message.kind() != OutboundMessage.Kind.BLOCK;
    }

    /**
     * Edits the draft into the reply (finalEdit), with the reply's transaction id so a resend is the same edit. True
     * when the draft now stands for the reply: edited, or the edit's outcome is unknown (retainOnAmbiguousFailure:
     * never a duplicate). False when the homeserver refused the edit: the draft is redacted and the reply sent normally
     * (normalFallback).
     */
    private boolean finalEdit(String room, String draftId, String txnId, String text, CancelToken cancel)
            throws DeliveryException {
        ObjectNode content = MatrixDraft.edit(draftId, RoomSender.text("m.text", text));
        content.put(RoomSender.MARKER, txnId);
        try {
            sender.send(room, "m.room.message", txnId, content, cancel);
            return true;
        } catch (CancelledException e) {
            sender.redact(room, draftId);
            throw e;
        } catch (DeliveryException e) {
            if (e.kind() == DeliveryException.Kind.AMBIGUOUS && cancel.isCancelled()) throw e;
            if (e.kind() == DeliveryException.Kind.AMBIGUOUS) {
                log.warn(
                        "matrix [{}]: final edit of draft {} got no answer; keeping the draft rather than "
                                + "risking a duplicate: {}",
                        bot.account.id(),
                        draftId,
                        e.getMessage());
                return true;
            }
            log.info(
                    "matrix [{}]: final edit of draft {} failed ({}); sending the reply as a new message",
                    bot.account.id(),
                    draftId,
                    e.getMessage());
            sender.redact(room, draftId);
            return false;
        }
    }

    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        room(message.target());
        return lookup.find(message, sender.txnId(message), cancel);
    }

    /** With {@code stream_mode = "preview"}, the {@code ...} draft at once, where the reply will go (SPEC OUT-9). */
    @Override
    public ReplyStream openStream(OutboundTarget target) {
        if (!bot.account.preview() || !MatrixChannel.roomId(target.replyTarget())) return ReplyStream.NONE;
        MatrixDraft draft = new MatrixDraft(bot, sender, target, previewInterval, previewTimer, io);
        MatrixDraft old = drafts.put(target, draft);
        if (old != null) discard(old);
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
                if (drafts.remove(target, draft)) MatrixMessageAdapter.this.discard(draft);
            }
        };
    }

    /**
     * The turn ended: typing stops; a draft no final reply took (cancelled, suppressed) is redacted (SPEC DI-5, RP-1).
     */
    @Override
    public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
        MatrixDraft draft = drafts.remove(target);
        if (draft != null) discard(draft);
        typing(target, false); // the indicator goes with the turn, not a few seconds later
    }

    private void discard(MatrixDraft draft) {
        String id = draft.finish();
        if (id != null) sender.redact(draft.target().replyTarget(), id);
    }

    @Override
    public void received(OutboundTarget target) {
        if (bot.account.ackReactions()
                && target.inReplyToMessageId() != null
                && MatrixChannel.roomId(target.replyTarget())) {
            reactions.received(target.replyTarget(), target.inReplyToMessageId());
        }
    }

    @Override
    public void settled(OutboundTarget target, InboxState state) {
        if (bot.account.ackReactions()
                && target.inReplyToMessageId() != null
                && MatrixChannel.roomId(target.replyTarget())) {
            reactions.settled(target.replyTarget(), target.inReplyToMessageId(), state);
        }
    }

    /** {@code PUT /rooms/{room}/typing/{userId}} ("Typing Notifications"), off the caller's thread. */
    @Override
    public void typing(OutboundTarget target) {
        typing(target, true);
    }

    private void typing(OutboundTarget target, boolean on) {
        String me = bot.userId();
        if (me == null || !MatrixChannel.roomId(target.replyTarget())) return;
        var body = MatrixApi.JSON.createObjectNode().put("typing", on);
        if (on) body.put("timeout", TYPING_TIMEOUT_MS);
        io.execute(() -> {
            try {
                bot.api.put(
                        "/_matrix/client/v3/rooms/" + MatrixApi.seg(target.replyTarget()) + "/typing/"
                                + MatrixApi.seg(me),
                        body,
                        CancelToken.none());
            } catch (MatrixApiException e) {
                log.debug("matrix [{}]: typing not shown: {}", bot.account.id(), e.getMessage());
            }
        });
    }

    private String room(OutboundTarget target) throws DeliveryException {
        if (!bot.account.id().equals(target.account())) {
            throw new DeliveryException(
                    "matrix has no account '" + target.account() + "'", DeliveryException.Kind.PERMANENT, null, null);
        }
        if (!MatrixChannel.roomId(target.replyTarget())) {
            throw new DeliveryException(
                    "matrix: \"" + target.replyTarget() + "\" is not a room id (!opaque:server)",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        return target.replyTarget();
    }
}
