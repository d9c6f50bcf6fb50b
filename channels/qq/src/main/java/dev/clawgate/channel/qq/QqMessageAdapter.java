package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * QQ's outbound side (SPEC OUT-4, CH-13): one payload is one message, {@code POST /v2/groups/{group_openid}/messages}
 * or {@code POST /v2/users/{openid}/messages}. A payload answering a message is a passive reply: it carries the
 * message's {@code msg_id} and a {@code msg_seq} of its own ({@link ReplyLedger}: 1, 2, ... per message, the same on
 * every attempt), so a retry after a lost answer is refused as a duplicate (40054005) instead of shown twice, which
 * proves the first arrived. A message can be answered passively only within {@link #GROUP_WINDOW} (groups) or
 * {@link #C2C_WINDOW} (direct chats) and {@link #MAX_PASSIVE} times; a payload past that goes as an active message (no
 * {@code msg_id}), which the platform sends only if the bot may send active messages; refused, the payload fails
 * permanently with both reasons recorded in the outbox, never dropped silently. Text is {@code msg_type} 0; a local
 * image is uploaded ({@code POST .../files}, {@code file_data}) and sent as {@code msg_type} 7 with its
 * {@code file_info}.
 */
final class QqMessageAdapter implements MessageAdapter {
    /**
     * Groups: "被动消息（回复类）有效时间为 5 分钟，每个消息最多回复 5 次" (bot docs, send-receive/send: 群聊); a margin is kept so a reply does
     * not race the deadline.
     */
    static final Duration GROUP_WINDOW = Duration.ofMinutes(5);
    /** Direct (C2C) chats: "有效时间为 60 分钟，每个消息最多回复 5 次" (bot docs, send-receive/send: 单聊). */
    static final Duration C2C_WINDOW = Duration.ofMinutes(60);
    /** Passive replies per received message, groups and direct chats alike. */
    static final int MAX_PASSIVE = 5;
    /** A passive reply is not attempted this close to the window's end. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    static final int MSG_TEXT = 0;
    static final int MSG_MEDIA = 7;
    /** {@code file_type} 1: an image (png/jpg). */
    static final int FILE_IMAGE = 1;
    /** The rich-media upload's size limit the adapter enforces before sending (the platform's is about 10 MB). */
    static final long MAX_UPLOAD = 10L * 1024 * 1024;

    private static final Pattern OPENID = Pattern.compile("[A-Za-z0-9_-]{1,128}");

    private final QqAccount account;
    private final QqApi api;
    private final ReplyLedger ledger;
    private final Clock clock;

    QqMessageAdapter(QqAccount account, QqApi api, ReplyLedger ledger, Clock clock) {
        this.account = account;
        this.api = api;
        this.ledger = ledger;
        this.clock = clock;
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.BATCH,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND);
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
        Prepared p = prepare(message, cancel);
        if (p == null)
            return new MessageReceipt(null, List.of(), List.of(), null, null, null, null, clock.instant(), null);
        String msgId = message.target().inReplyToMessageId();
        String closed = msgId == null ? null : passiveClosed(msgId, p.direct());
        ReplyLedger.Slot slot = null;
        if (msgId != null && closed == null) {
            slot = ledger.claim(msgId, message.idempotencyKey(), MAX_PASSIVE);
            if (slot == null) closed = "message " + msgId + " was already answered " + MAX_PASSIVE + " times";
        }
        if (slot != null) {
            try {
                return passive(p, msgId, slot.seq(), cancel);
            } catch (QqApiException e) {
                if (!e.passiveClosed()) throw e.toDelivery("passive reply", true);
                if (slot.repeated()) {
                    throw new DeliveryException(
                            "qq: the passive window of " + msgId + " closed after an attempt whose outcome is "
                                    + "unknown; not sent again as an active message: " + e.getMessage(),
                            DeliveryException.Kind.AMBIGUOUS,
                            null,
                            e);
                }
                closed = "QQ no longer takes passive replies to " + msgId + " (" + e.getMessage() + ")";
            }
        }
        ledger.activeAttempt(message.idempotencyKey());
        try {
            return receipt(api.call("POST", p.base() + "/messages", p.body(), cancel), p.kind(), null);
        } catch (QqApiException e) {
            if (closed != null && !e.retryable() && e.reach() == QqApiException.Reach.ANSWERED) {
                throw permanent("the passive reply window closed (" + closed + ") and QQ refused an active message: "
                        + e.getMessage());
            }
            throw e.toDelivery(closed == null ? "active message" : "active message (" + closed + ")", false);
        }
    }

    /**
     * SPEC OUT-7: a passive reply cut by a crash is sent again with the seq it took (written before it left): QQ
     * refuses it as a duplicate when the first arrived (found), or delivers it now, once. No seq in a kept ledger
     * proves it never left; an active message has nothing the platform could be asked by: unknown.
     */
    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        String key = message.idempotencyKey();
        if (ledger.attemptedActive(key)) {
            return new Reconciliation.Unknown("it went as an active message, which carries no msg_seq");
        }
        String msgId = message.target().inReplyToMessageId();
        Integer seq = msgId == null ? null : ledger.seqOf(msgId, key);
        if (seq == null) {
            return ledger.persistent()
                    ? new Reconciliation.NotSent()
                    : new Reconciliation.Unknown("no attempt of " + key + " is known to this process");
        }
        Prepared p = prepare(message, cancel);
        if (p == null) return new Reconciliation.NotSent();
        try {
            return new Reconciliation.Found(passive(p, msgId, seq, cancel));
        } catch (QqApiException e) {
            if (e.passiveClosed()) return new Reconciliation.Unknown("the passive window closed: " + e.getMessage());
            throw e.toDelivery("reconcile", true);
        }
    }

    /** Where and what a payload sends; null for an empty one. */
    private record Prepared(String base, boolean direct, ObjectNode body, MessageReceipt.PartKind kind) {}

    private Prepared prepare(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        String chat = message.target().replyTarget();
        boolean direct = chat != null && chat.startsWith(MessageReader.USER_PREFIX);
        String openid = direct ? chat.substring(MessageReader.USER_PREFIX.length()) : chat;
        if (openid == null || !OPENID.matcher(openid).matches()) {
            throw permanent("the reply target is not a group_openid or user:<openid>");
        }
        int units = chunkLimits().measure().units(message.text());
        if (units > account.textLimit()) {
            throw permanent("a payload of " + units + " characters is over text_limit " + account.textLimit());
        }
        if (message.media().size() > 1) throw permanent("one payload is one message: at most one image");
        if (message.media().isEmpty() && message.text().isBlank()) return null;
        String base = (direct ? "/v2/users/" : "/v2/groups/") + openid;
        ObjectNode body = QqApi.JSON.createObjectNode();
        if (message.media().isEmpty()) {
            body.put("msg_type", MSG_TEXT).put("content", message.text());
            return new Prepared(base, direct, body, MessageReceipt.PartKind.TEXT);
        }
        body.put("msg_type", MSG_MEDIA).put("content", message.text().isBlank() ? " " : message.text());
        body.putObject("media").put("file_info", upload(base, message.media().getFirst(), cancel));
        return new Prepared(base, direct, body, MessageReceipt.PartKind.MEDIA);
    }

    /** A passive reply with {@code msg_id} and {@code seq}; a duplicate seq means it went out before: delivered. */
    private MessageReceipt passive(Prepared p, String msgId, int seq, CancelToken cancel)
            throws QqApiException, DeliveryException {
        ObjectNode passive = p.body().deepCopy().put("msg_id", msgId).put("msg_seq", seq);
        try {
            return receipt(api.call("POST", p.base() + "/messages", passive, cancel), p.kind(), msgId);
        } catch (QqApiException e) {
            if (!e.seqDuplicate()) throw e;
            // SPEC OUT-7: this msg_id + msg_seq went out before (its answer was lost): delivered, once
            return new MessageReceipt(null, List.of(), List.of(), null, msgId, null, null, clock.instant(), null);
        }
    }

    /** Why {@code msgId} can no longer be answered passively, or null while it can (as far as the ledger knows). */
    private String passiveClosed(String msgId, boolean direct) {
        Instant at = ledger.receivedAt(msgId);
        if (at == null) return null;
        Duration window = direct ? C2C_WINDOW : GROUP_WINDOW;
        if (clock.instant().isBefore(at.plus(window).minus(MARGIN))) return null;
        return "message " + msgId + " is older than " + window.toMinutes() + " minutes";
    }

    private String upload(String base, MediaRef media, CancelToken cancel) throws DeliveryException {
        if (media.kind() != MediaRef.MediaKind.IMAGE) {
            throw permanent("only images are sent (rich media file_type 1); got " + media.kind());
        }
        ObjectNode up =
                QqApi.JSON.createObjectNode().put("file_type", FILE_IMAGE).put("srv_send_msg", false);
        if (media.remote()) {
            up.put("url", media.location());
        } else {
            Path file = Path.of(media.location());
            try {
                if (Files.size(file) > MAX_UPLOAD) {
                    throw permanent(file.getFileName() + " is over the " + MAX_UPLOAD + "-byte upload limit");
                }
                up.put("file_data", Base64.getEncoder().encodeToString(Files.readAllBytes(file)));
            } catch (IOException e) {
                throw permanent("cannot read " + file.getFileName() + ": "
                        + e.getClass().getSimpleName());
            }
        }
        try {
            String info = api.call("POST", base + "/files", up, cancel)
                    .path("file_info")
                    .asText("");
            if (info.isEmpty()) throw permanent("the upload answered no file_info");
            return info;
        } catch (QqApiException e) {
            // an upload whose answer was lost left at most an unused file: nothing a user sees
            throw e.toDelivery("media upload", true);
        }
    }

    private MessageReceipt receipt(JsonNode answer, MessageReceipt.PartKind kind, String replyTo)
            throws DeliveryException {
        String id = answer.path("id").asText("");
        if (id.isEmpty()) {
            throw new DeliveryException(
                    "qq: the send answered no message id", DeliveryException.Kind.AMBIGUOUS, null, null);
        }
        return new MessageReceipt(
                id,
                List.of(id),
                List.of(new MessageReceipt.Part(kind, id)),
                null,
                replyTo,
                null,
                null,
                clock.instant(),
                answer.toString());
    }

    private static DeliveryException permanent(String why) {
        return new DeliveryException("qq: " + why, DeliveryException.Kind.PERMANENT, null, null);
    }
}
