package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.PartSends.sendOrThrow;
import static dev.clawgate.channel.telegram.PartSends.untilDelivered;
import static dev.clawgate.channel.telegram.TelegramIds.chatId;
import static dev.clawgate.channel.telegram.TelegramIds.chatOrNull;
import static dev.clawgate.channel.telegram.TelegramIds.messageId;
import static dev.clawgate.channel.telegram.TelegramIds.numericOrNull;
import static dev.clawgate.channel.telegram.TelegramIds.threadId;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Telegram's outbound side (SPEC OUT-4, CH-3): text as Telegram HTML split to the text limit, media as multipart
 * uploads, replies via {@code reply_parameters}, forum topics via {@code message_thread_id}, silent sends, a typing
 * indicator and ack reactions from receipt to final state (RP-5), and a live preview finalised into the reply (OUT-9).
 * There is no {@code reconcileUnknownSend}: the Bot API cannot look up a bot's sent messages.
 *
 * <p>{@link #received} (a message was recorded and admitted) sets the 👀 reaction; {@link #openStream} (the agent
 * starts on a turn) shows the {@code ...} draft, which {@link #send} finalises and {@link #turnEnded} takes away when
 * no reply did; {@link #typing} is one {@code sendChatAction}, refreshed by the turn; {@link #settled} replaces the 👀
 * with the message's outcome.
 */
final class TelegramMessageAdapter implements MessageAdapter {
    private static final Logger log = LoggerFactory.getLogger(TelegramMessageAdapter.class);
    static final Duration MAX_INLINE_FLOOD_WAIT = Duration.ofSeconds(30);

    private final Map<String, Bot> bots;
    private final MessageSender sender;
    /** Chats with a sendChatAction on its way: a slow API gets one at a time, not a pile of them. */
    private final Set<OutboundTarget> typing = ConcurrentHashMap.newKeySet();

    private final ConcurrentHashMap<OutboundTarget, LiveDraft> drafts = new ConcurrentHashMap<>();
    private final AckReactions reactions;
    private final Scheduler previewTimer;
    private final Executor io;
    private final Set<Capability> capabilities;

    /**
     * @param previewTimer times the live previews' edits (SPEC OUT-9)
     * @param io where preview and reaction calls run, off the turn's thread
     */
    TelegramMessageAdapter(Map<String, Bot> bots, Duration maxInlineFloodWait, Scheduler previewTimer, Executor io) {
        this.bots = Map.copyOf(bots);
        this.sender = new MessageSender(maxInlineFloodWait);
        this.previewTimer = previewTimer;
        this.io = io;
        this.reactions = new AckReactions(io);
        Set<Capability> c = EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.REPLY_TO,
                Capability.THREAD,
                Capability.SILENT,
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

    /** The smallest limit of the bots (one adapter serves them all), in UTF-16 units as Telegram counts. */
    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.of(textLimit());
    }

    /** SPEC RP-3: Telegram's stored turns carry no {@code [Used tools: ...]} prefix. */
    @Override
    public boolean toolSummaryInTranscript() {
        return false;
    }

    @Override
    public int textLimit() {
        return bots.values().stream().mapToInt(b -> b.account.textLimit()).min().orElse(TelegramAccount.MAX_TEXT);
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        Bot bot = bot(target);
        long chatId = chatId(target);
        Long thread = threadId(target);
        Long asked = message.options().replyTo() ? messageId(target.inReplyToMessageId()) : null;
        // SPEC OUT-1, OUT-8: the payload was cut to chunkLimits() by the planner; one payload is one platform message
        int units = ChunkLimits.of(bot.account.textLimit()).measure().units(message.text());
        if (units > bot.account.textLimit()) {
            throw new DeliveryException(
                    "telegram: a payload of " + units + " UTF-16 units is over bot " + bot.account.id()
                            + "'s text_limit of " + bot.account.textLimit()
                            + "; payloads are cut before they reach the adapter",
                    true,
                    null);
        }
        LiveDraft draft = endsTheTurn(message) ? drafts.remove(target) : null;
        List<String> chunks = message.text().isBlank() ? List.of() : List.of(message.text());
        List<MessageReceipt.Part> parts = new ArrayList<>();
        ArrayNode raw = BotApi.JSON.createArrayNode();
        int first = 0;
        if (draft != null) {
            Long draftId = draft.finish();
            if (draftId != null && !chunks.isEmpty() && finalEdit(bot, chatId, draftId, chunks.getFirst(), cancel)) {
                // previewReceipt: the draft (which already replies to the message) is the reply's first part
                parts.add(new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, chatId + ":" + draftId));
                first = 1;
            }
        }
        Long replyTo = asked;
        for (int i = first; i < chunks.size(); i++) {
            String chunk = chunks.get(i);
            Long reply = parts.isEmpty() ? replyTo : null;
            CancelToken abort = untilDelivered(cancel, parts);
            JsonNode m = sendOrThrow(
                    () -> sender.send(
                            bot, chatId, thread, reply, message.options().silent(), chunk, abort),
                    "sendMessage",
                    parts);
            raw.add(m);
            parts.add(new MessageReceipt.Part(
                    MessageReceipt.PartKind.TEXT,
                    chatId + ":" + m.path("message_id").asLong()));
        }
        for (MediaRef media : message.media()) {
            Long mediaReply = parts.isEmpty() ? replyTo : null;
            CancelToken abort = untilDelivered(cancel, parts);
            JsonNode m = sendOrThrow(
                    () -> MediaUpload.send(
                            bot,
                            sender,
                            chatId,
                            thread,
                            mediaReply,
                            message.options().silent(),
                            media,
                            abort),
                    "media upload",
                    parts);
            raw.add(m);
            parts.add(new MessageReceipt.Part(
                    MessageReceipt.PartKind.MEDIA,
                    chatId + ":" + m.path("message_id").asLong()));
        }
        List<String> ids = parts.stream().map(MessageReceipt.Part::platformId).toList();
        String primary = ids.isEmpty() ? null : ids.getFirst();
        return new MessageReceipt(
                primary,
                ids,
                parts,
                target.threadId(),
                asked == null ? null : target.inReplyToMessageId(),
                primary,
                primary,
                Instant.now(),
                raw.toString());
    }

    /**
     * Edits the draft into the reply's first chunk (finalEdit). True when the draft now stands for that chunk: edited,
     * or the edit's outcome is unknown (retainOnAmbiguousFailure: never a duplicate). False when the draft is gone or
     * refused: the reply is sent normally (normalFallback) and the stale draft deleted. An abort before the edit leaves
     * deletes the draft (nothing of the reply was shown); one while the edit is out is ambiguous (SPEC OUT-11): the
     * draft stays and the send's outcome is unknown.
     */
    private boolean finalEdit(Bot bot, long chatId, long draftId, String chunk, CancelToken cancel)
            throws DeliveryException {
        try {
            sender.edit(bot, chatId, draftId, chunk, cancel);
            return true;
        } catch (CancelledException e) {
            deleteDraft(bot, chatId, draftId);
            throw e;
        } catch (BotApiException e) {
            if (e.reach() == BotApiException.Reach.UNKNOWN && cancel.isCancelled())
                throw e.toDelivery("final edit of the draft");
            if (e.reach() == BotApiException.Reach.UNKNOWN) {
                log.warn(
                        "telegram [{}]: final edit of draft {} got no answer; keeping the draft rather than risking a "
                                + "duplicate: {}",
                        bot.account.id(),
                        draftId,
                        e.getMessage());
                return true;
            }
            log.info(
                    "telegram [{}]: final edit of draft {} failed ({}); sending the reply as a new message",
                    bot.account.id(),
                    draftId,
                    e.getMessage());
            deleteDraft(bot, chatId, draftId);
            return false;
        }
    }

    private static void deleteDraft(Bot bot, long chatId, long draftId) {
        try {
            bot.api.call(
                    "deleteMessage",
                    BotApi.JSON.createObjectNode().put("chat_id", chatId).put("message_id", draftId));
        } catch (BotApiException e) {
            log.debug("telegram: stale draft {} not deleted: {}", draftId, e.getMessage());
        }
    }

    /** SPEC RP-5: 👀 on receipt, while the message may still wait for its turn. */
    @Override
    public void received(OutboundTarget target) {
        Bot bot = bots.get(target.account());
        Long inbound = messageId(target.inReplyToMessageId());
        Long chat = chatOrNull(target);
        if (bot != null && bot.account.ackReactions() && inbound != null && chat != null) {
            reactions.received(bot, chat, inbound);
        }
    }

    /** The agent starts on a turn: the {@code ...} draft at once (SPEC OUT-9). */
    @Override
    public ReplyStream openStream(OutboundTarget target) {
        Bot bot = bots.get(target.account());
        Long chat = chatOrNull(target);
        boolean usable = chat != null && numericOrNull(target.threadId());
        if (bot == null || !bot.account.preview() || !usable) return ReplyStream.NONE;
        LiveDraft draft = new LiveDraft(
                bot,
                chat,
                target.threadId() == null ? null : Long.parseLong(target.threadId()),
                messageId(target.inReplyToMessageId()),
                bot.account.previewInterval(),
                bot.account.textLimit(),
                previewTimer,
                io);
        LiveDraft old = drafts.put(target, draft);
        if (old != null) discard(bot, target, old);
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
                if (drafts.remove(target, draft)) TelegramMessageAdapter.discard(bot, target, draft);
            }
        };
    }

    /** A notice or a streamed block (SPEC OUT-2) comes while the run still works: the draft goes on. */
    private static boolean endsTheTurn(OutboundMessage message) {
        return message.kind() != OutboundMessage.Kind.NOTICE && message.kind() != OutboundMessage.Kind.BLOCK;
    }

    /** SPEC RP-5: the received message's final state (for a merged one, its turn's) replaces its 👀. */
    @Override
    public void settled(OutboundTarget target, InboxState state) {
        Bot bot = bots.get(target.account());
        Long inbound = messageId(target.inReplyToMessageId());
        Long chat = chatOrNull(target);
        if (bot != null && bot.account.ackReactions() && inbound != null && chat != null) {
            reactions.settled(bot, chat, inbound, state);
        }
    }

    /**
     * The turn ended. A draft no final reply took (the run was cancelled, or the reply suppressed) is deleted, so no
     * preview text outlives its run (SPEC DI-5, RP-1).
     */
    @Override
    public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
        Bot bot = bots.get(target.account());
        LiveDraft draft = drafts.remove(target);
        if (draft != null && bot != null) discard(bot, target, draft);
    }

    private static void discard(Bot bot, OutboundTarget target, LiveDraft draft) {
        Long id = draft.finish();
        if (id == null) return;
        try {
            ObjectNode p = BotApi.JSON
                    .createObjectNode()
                    .put("chat_id", chatOrNull(target))
                    .put("message_id", id);
            bot.api.call("deleteMessage", p);
        } catch (BotApiException e) {
            log.info("telegram [{}]: leftover draft {} not deleted: {}", bot.account.id(), id, e.getMessage());
        }
    }

    /**
     * SPEC RP-5: one {@code sendChatAction typing} (Telegram shows it for 5 s or until the bot's next message); the
     * turn's {@code TypingRefresh} calls this at once and every 4 s while it works. The call runs on the I/O executor,
     * as this is called on the turn's timer.
     */
    @Override
    public void typing(OutboundTarget target) {
        Bot bot = bots.get(target.account());
        Long chat = chatOrNull(target);
        if (bot == null || chat == null || !numericOrNull(target.threadId()) || !typing.add(target)) return;
        ObjectNode params = BotApi.JSON.createObjectNode().put("chat_id", chat).put("action", "typing");
        if (target.threadId() != null) params.put("message_thread_id", Long.parseLong(target.threadId()));
        try {
            io.execute(() -> {
                try {
                    bot.api.call("sendChatAction", params);
                } catch (BotApiException e) {
                    log.debug("telegram [{}]: typing indicator not shown: {}", bot.account.id(), e.getMessage());
                } catch (RuntimeException e) {
                    log.warn("telegram [{}]: typing indicator not shown: {}", bot.account.id(), e.toString());
                } finally {
                    typing.remove(target);
                }
            });
        } catch (RuntimeException e) {
            typing.remove(target);
            throw e;
        }
    }

    private Bot bot(OutboundTarget target) throws DeliveryException {
        Bot bot = bots.get(target.account());
        if (bot == null) {
            throw new DeliveryException(
                    "telegram has no account '" + target.account() + "'", DeliveryException.Kind.PERMANENT, null, null);
        }
        return bot;
    }
}
