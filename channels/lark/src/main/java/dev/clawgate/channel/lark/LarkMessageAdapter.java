package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lark's outbound side (SPEC OUT-4, CH-11): one payload is one message, sent with {@code POST
 * im/v1/messages/{message_id}/reply} when it answers a message, else {@code POST im/v1/messages?receive_id_type=
 * chat_id}. Text goes as a {@code text} message, or as a {@code post} with one {@code md} element when it holds
 * Markdown; a local image (an {@code [IMAGE:path]} marker) is uploaded with {@code POST im/v1/images} and sent as an
 * {@code image} message by its {@code image_key} (OUT-13). Every send carries a {@code uuid} derived from the payload's
 * idempotency key, so a send whose answer was lost is sent again safely: the platform gives the first message back
 * instead of a second (OUT-7). Rate limits (99991400) are transient; other codes permanent.
 */
final class LarkMessageAdapter implements MessageAdapter {
    private static final Logger log = LoggerFactory.getLogger(LarkMessageAdapter.class);
    private static final Pattern CHAT = Pattern.compile("[A-Za-z0-9_-]{1,128}");
    private static final Pattern MARKDOWN =
            Pattern.compile("(?s).*(\\*\\*|```|\\[[^]]+]\\(https?://|^#{1,6} |\\n#{1,6} |\\n[-*] ).*");
    static final String RECEIVED = AckReactions.RECEIVED;
    static final String DONE = AckReactions.DONE;
    static final String FAILED = AckReactions.FAILED;

    private final LarkAccount account;
    private final LarkApi api;
    private final Executor io;
    /** The receipt reaction's id per message, once shown: settled waits for it (both run on {@code io}). */
    private final Scheduler previewTimer;

    private final Duration previewInterval;
    private final ConcurrentHashMap<OutboundTarget, LarkDraft> drafts = new ConcurrentHashMap<>();
    private final AckReactions reactions;

    /**
     * @param previewTimer times the live previews' edits (SPEC OUT-9)
     * @param previewInterval the least time between two edits of a preview
     */
    LarkMessageAdapter(
            LarkAccount account, LarkApi api, Executor io, Scheduler previewTimer, Duration previewInterval) {
        this.account = account;
        this.api = api;
        this.io = io;
        this.previewTimer = previewTimer;
        this.previewInterval = previewInterval;
        this.reactions = new AckReactions(api, io);
    }

    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> c = EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.BATCH,
                Capability.REPLY_TO,
                Capability.MESSAGE_SENDING_HOOKS);
        if (account.preview()) {
            c.addAll(EnumSet.of(
                    Capability.DRAFT_PREVIEW,
                    Capability.PREVIEW_FINALIZATION,
                    Capability.FINAL_EDIT,
                    Capability.PREVIEW_RECEIPT,
                    Capability.NORMAL_FALLBACK,
                    Capability.DISCARD_PENDING,
                    Capability.RETAIN_ON_AMBIGUOUS_FAILURE));
        }
        return Set.copyOf(c);
    }

    @Override
    public int textLimit() {
        return account.textLimit();
    }

    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.of(account.textLimit());
    }

    @Override
    public boolean toolSummaryInTranscript() {
        return false;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        String chat = target.replyTarget();
        if (chat == null || !CHAT.matcher(chat).matches()) {
            throw new DeliveryException(
                    "lark: the reply target is not a chat_id", DeliveryException.Kind.PERMANENT, null, null);
        }
        int units = chunkLimits().measure().units(message.text());
        if (units > account.textLimit()) {
            throw new DeliveryException(
                    "lark: a payload of " + units + " units is over text_limit " + account.textLimit(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        if (message.media().size() > 1
                || (!message.media().isEmpty() && !message.text().isBlank())) {
            throw new DeliveryException(
                    "lark: one payload is one message: text or one image, not both",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        String replyTo = message.options().replyTo() ? target.inReplyToMessageId() : null;
        if (replyTo != null && !CHAT.matcher(replyTo).matches()) replyTo = null;
        LarkDraft draft = endsTheTurn(message) ? drafts.remove(target) : null;
        String draftId = draft == null ? null : draft.finish();
        if (draftId != null) {
            if (message.text().isBlank() || !message.media().isEmpty()) {
                delete(draftId);
            } else if (finalEdit(draftId, message.text(), cancel)) {
                // previewReceipt: the draft, now the reply, is the receipt's message
                return new MessageReceipt(
                        draftId,
                        List.of(draftId),
                        List.of(new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, draftId)),
                        null,
                        null,
                        draftId,
                        draftId,
                        Instant.now(),
                        null);
            }
        }
        String type;
        String content;
        MessageReceipt.PartKind kind;
        if (message.media().isEmpty()) {
            if (message.text().isBlank()) {
                return new MessageReceipt(null, List.of(), List.of(), null, null, null, null, Instant.now(), null);
            }
            String text = message.text();
            if (MARKDOWN.matcher(text).matches()) {
                type = "post";
                ObjectNode post = LarkApi.JSON.createObjectNode();
                post.putObject("zh_cn")
                        .putArray("content")
                        .addArray()
                        .addObject()
                        .put("tag", "md")
                        .put("text", text);
                content = post.toString();
            } else {
                type = "text";
                content = LarkApi.JSON.createObjectNode().put("text", text).toString();
            }
            kind = MessageReceipt.PartKind.TEXT;
        } else {
            MediaRef media = message.media().getFirst();
            if (media.remote() || media.kind() != MediaRef.MediaKind.IMAGE) {
                type = "text";
                content = LarkApi.JSON
                        .createObjectNode()
                        .put("text", media.location())
                        .toString();
            } else {
                type = "image";
                content = LarkApi.JSON
                        .createObjectNode()
                        .put("image_key", upload(Path.of(media.location()), cancel))
                        .toString();
            }
            kind = MessageReceipt.PartKind.MEDIA;
        }
        // stable across attempts (a lost answer is sent again under it), distinct per chat and payload
        String uuid = UUID.nameUUIDFromBytes(
                        (chat + "|" + replyTo + "|" + message.idempotencyKey()).getBytes(StandardCharsets.UTF_8))
                .toString();
        ObjectNode body = LarkApi.JSON
                .createObjectNode()
                .put("msg_type", type)
                .put("content", content)
                .put("uuid", uuid);
        JsonNode answer;
        try {
            if (replyTo != null) {
                answer = api.call("POST", "im/v1/messages/" + replyTo + "/reply", body, cancel);
            } else {
                body.put("receive_id", chat);
                answer = api.call("POST", "im/v1/messages?receive_id_type=chat_id", body, cancel);
            }
        } catch (LarkApiException e) {
            throw e.toDelivery("send", true);
        }
        String id = answer.path("data").path("message_id").asText("");
        if (id.isEmpty()) {
            throw new DeliveryException(
                    "lark: the send answered no message_id", DeliveryException.Kind.AMBIGUOUS, null, null);
        }
        return new MessageReceipt(
                id,
                List.of(id),
                List.of(new MessageReceipt.Part(kind, id)),
                null,
                replyTo,
                id,
                id,
                Instant.now(),
                answer.toString());
    }

    /** A notice or a streamed block (SPEC OUT-2) comes while the run still works: the draft goes on. */
    private static boolean endsTheTurn(OutboundMessage message) {
        return message.kind() != OutboundMessage.Kind.NOTICE && message.kind() != OutboundMessage.Kind.BLOCK;
    }

    /**
     * Edits the draft into the reply (finalEdit, the 20th edit at most). True when the draft now stands for the reply:
     * edited, or the edit's outcome is unknown (retainOnAmbiguousFailure: never a duplicate). False when the platform
     * refused it: the draft is recalled and the reply sent normally (normalFallback).
     */
    private boolean finalEdit(String draftId, String text, CancelToken cancel) throws DeliveryException {
        try {
            api.call("PUT", "im/v1/messages/" + draftId, LarkDraft.post(text), cancel);
            return true;
        } catch (CancelledException e) {
            delete(draftId);
            throw e;
        } catch (LarkApiException e) {
            if (e.reach() == LarkApiException.Reach.UNKNOWN && cancel.isCancelled()) {
                throw e.toDelivery("final edit of the draft", false);
            }
            if (e.reach() == LarkApiException.Reach.UNKNOWN) {
                log.warn(
                        "lark: final edit of draft {} got no answer; keeping the draft rather than risking a "
                                + "duplicate: {}",
                        draftId,
                        e.getMessage());
                return true;
            }
            log.info(
                    "lark: final edit of draft {} failed ({}); sending the reply as a new message",
                    draftId,
                    e.getMessage());
            delete(draftId);
            return false;
        }
    }

    private void delete(String messageId) {
        try {
            api.call("DELETE", "im/v1/messages/" + messageId, null, CancelToken.none());
        } catch (LarkApiException e) {
            log.info("lark: draft {} not recalled: {}", messageId, e.getMessage());
        }
    }

    /** With {@code stream_mode = "preview"}: the {@code ...} draft at once (SPEC OUT-9), where the reply will go. */
    @Override
    public ReplyStream openStream(OutboundTarget target) {
        String chat = target.replyTarget();
        if (!account.preview() || chat == null || !CHAT.matcher(chat).matches()) return ReplyStream.NONE;
        String replyTo = target.inReplyToMessageId();
        if (replyTo != null && !CHAT.matcher(replyTo).matches()) replyTo = null;
        LarkDraft draft = new LarkDraft(api, chat, replyTo, account.textLimit(), previewInterval, previewTimer, io);
        LarkDraft old = drafts.put(target, draft);
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
                if (drafts.remove(target, draft)) LarkMessageAdapter.this.discard(draft);
            }
        };
    }

    /** The turn ended; a draft no final reply took (cancelled, suppressed) is recalled (SPEC DI-5, RP-1). */
    @Override
    public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
        LarkDraft draft = drafts.remove(target);
        if (draft != null) discard(draft);
    }

    private void discard(LarkDraft draft) {
        String id = draft.finish();
        if (id != null) delete(id);
    }

    private String upload(Path file, CancelToken cancel) throws DeliveryException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DeliveryException(
                    "lark: cannot read " + file.getFileName() + ": "
                            + e.getClass().getSimpleName(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    e);
        }
        try {
            return api.uploadImage(file.getFileName().toString(), bytes, cancel);
        } catch (LarkApiException e) {
            // an upload whose answer was lost left at most an unused image: nothing a user sees
            throw e.toDelivery("image upload", true);
        }
    }

    /** SPEC RP-5: a receipt reaction on the received message. */
    @Override
    public void received(OutboundTarget target) {
        String id = target.inReplyToMessageId();
        if (!account.ackReactions() || id == null || !CHAT.matcher(id).matches()) return;
        reactions.received(id);
    }

    /** SPEC RP-5: the receipt is taken away; done adds DONE, failed or expired a cross mark. */
    @Override
    public void settled(OutboundTarget target, InboxState state) {
        String id = target.inReplyToMessageId();
        if (!account.ackReactions() || id == null || !CHAT.matcher(id).matches()) return;
        reactions.settled(id, state);
    }
}
