package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WhatsApp's outbound side (SPEC OUT-4, CH-12): one payload is one {@code POST /{phone_number_id}/messages}: a text in
 * WhatsApp's formatting ({@link WhatsAppText}), or one media message (a local file uploaded with {@code POST
 * /{phone_number_id}/media} and sent by its id, a URL sent as a {@code link}). A direct chat's target is the customer's
 * wa_id ({@code recipient_type: individual}); anything else is a group id of the Cloud API's group messaging
 * ({@code recipient_type: group}). A reply quotes the message it answers with {@code context.message_id}. A reply with
 * text and media (a batch) is its payloads in order, each its own message; a payload carrying both sends the text as
 * the media's caption.
 *
 * <p>SPEC OUT-7: the Cloud API has no client message id to look a send up by, so {@code reconcileUnknownSend} is not
 * declared: a send whose answer is lost is {@code unknown_after_send}, never repeated. Rate limits (130429 throughput,
 * 131056 pair rate, Graph's call limits) mean the message was not taken: a short wait is made here (doubling, at most
 * {@link #INLINE_RETRIES} times), a longer one is handed back to the outbox. 131047 (the customer-service window
 * closed) and auth errors (190) are permanent, as is a send to a customer whose window Meta reported closed
 * ({@link DeliveryStatuses}), before any platform call.
 */
final class WhatsAppMessageAdapter implements MessageAdapter {
    private static final Logger log = LoggerFactory.getLogger(WhatsAppMessageAdapter.class);
    static final int INLINE_RETRIES = 2;
    /** The most a send waits inline for a rate limit before the outbox takes over. */
    static final Duration MAX_INLINE_WAIT = Duration.ofSeconds(5);

    static final int CAPTION_LIMIT = 1024;
    /** The Cloud API shows a typing indicator for up to 25 s: the turn's 4 s refresh is thinned to this. */
    static final Duration TYPING_EVERY = Duration.ofSeconds(20);

    private static final int MAX_TYPING_KEPT = 10_000;

    private final WhatsAppAccount account;
    private final GraphApi api;
    private final DeliveryStatuses statuses;
    private final Executor io;
    private final Duration rateBackoff;
    private final Duration maxInlineWait;
    private final java.util.concurrent.ConcurrentHashMap<String, Long> typingShownAt =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param io where reactions and typing indicators run, off the caller's thread
     * @param rateBackoff the first inline wait after a throughput limit (130429); the pair rate (131056) waits 3x
     */
    WhatsAppMessageAdapter(
            WhatsAppAccount account,
            GraphApi api,
            DeliveryStatuses statuses,
            Executor io,
            Duration rateBackoff,
            Duration maxInlineWait) {
        this.account = account;
        this.api = api;
        this.statuses = statuses;
        this.io = io;
        this.rateBackoff = rateBackoff;
        this.maxInlineWait = maxInlineWait;
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.copyOf(EnumSet.of(
                Capability.TEXT,
                Capability.MEDIA,
                Capability.BATCH,
                Capability.REPLY_TO,
                Capability.MESSAGE_SENDING_HOOKS));
    }

    @Override
    public int textLimit() {
        return account.textLimit();
    }

    @Override
    public ChunkLimits chunkLimits() {
        return ChunkLimits.of(account.textLimit());
    }

    /** SPEC RP-3: the stored turn holds only what the customer saw. */
    @Override
    public boolean toolSummaryInTranscript() {
        return false;
    }

    /** A wa_id is a phone number's digits; a group id of the Cloud API's group messaging is anything else. */
    static boolean isGroup(String replyTarget) {
        return !replyTarget.matches("\\d{1,32}");
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        OutboundTarget target = message.target();
        String to = target.replyTarget();
        if (to == null || !to.matches("[A-Za-z0-9_=+/.:@-]{1,256}")) {
            throw new DeliveryException(
                    "whatsapp: the reply target is not a wa_id nor a group id",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        boolean group = isGroup(to);
        if (!group && statuses.windowClosed(to)) {
            throw new DeliveryException(
                    "whatsapp: the customer-service window with this customer is closed (Meta "
                            + "reported error 131047 for an earlier message; more than 24 h since they last wrote): "
                            + "only a "
                            + "template message can reach them until they write again",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        int units = chunkLimits().measure().units(message.text());
        if (units > account.textLimit()) {
            throw new DeliveryException(
                    "whatsapp: a payload of " + units + " UTF-16 units is over text_limit " + account.textLimit()
                            + "; payloads are cut before they reach the adapter",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        if (message.media().size() > 1) {
            throw new DeliveryException(
                    "whatsapp: one payload carries at most one media; the planner sends each " + "alone",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        String replyTo = message.options().replyTo() ? target.inReplyToMessageId() : null;
        ObjectNode body = envelope(to, group, replyTo);
        String text = message.text().isBlank() ? "" : WhatsAppText.render(message.text());
        MessageReceipt.PartKind kind;
        if (message.media().isEmpty()) {
            if (text.isEmpty())
                return new MessageReceipt(null, List.of(), List.of(), null, null, null, null, Instant.now(), null);
            body.put("type", "text").putObject("text").put("preview_url", false).put("body", text);
            kind = MessageReceipt.PartKind.TEXT;
        } else {
            MediaRef media = message.media().getFirst();
            if (text.length() > CAPTION_LIMIT || (!text.isEmpty() && media.kind() == MediaRef.MediaKind.AUDIO)) {
                throw new DeliveryException(
                        "whatsapp: a media payload's text must fit a caption (" + CAPTION_LIMIT
                                + " characters, none for audio)",
                        DeliveryException.Kind.PERMANENT,
                        null,
                        null);
            }
            OutboundMedia.attach(body, media, text, account.phoneNumberId(), api, cancel);
            kind = MessageReceipt.PartKind.MEDIA;
        }
        JsonNode answer = post(body, cancel);
        String wamid = answer.path("messages").path(0).path("id").asText(null);
        if (wamid == null) {
            throw new DeliveryException(
                    "whatsapp: the messages endpoint answered without a message id",
                    DeliveryException.Kind.AMBIGUOUS,
                    null,
                    null);
        }
        return new MessageReceipt(
                wamid,
                List.of(wamid),
                List.of(new MessageReceipt.Part(kind, wamid)),
                null,
                replyTo,
                null,
                null,
                Instant.now(),
                answer.toString());
    }

    private ObjectNode envelope(String to, boolean group, String replyTo) {
        ObjectNode body = GraphApi.JSON
                .createObjectNode()
                .put("messaging_product", "whatsapp")
                .put("recipient_type", group ? "group" : "individual")
                .put("to", to);
        if (replyTo != null && !replyTo.isBlank()) body.putObject("context").put("message_id", replyTo);
        return body;
    }

    /** One post; a rate limit with a short wait is waited out and the post made again (Meta did not take it). */
    private JsonNode post(ObjectNode body, CancelToken cancel) throws DeliveryException {
        String path = account.phoneNumberId() + "/messages";
        for (int attempt = 0; ; attempt++) {
            try {
                return api.post(path, body, cancel);
            } catch (GraphApiException e) {
                Duration wait = inlineWait(e, attempt);
                if (wait == null) throw e.toDelivery("send");
                log.info("whatsapp: rate limited (error {}); sending again in {} ms", e.code(), wait.toMillis());
                try {
                    if (cancel.await(wait.toMillis(), TimeUnit.MILLISECONDS)) cancel.throwIfCancelled();
                } catch (InterruptedException stopped) {
                    Thread.currentThread().interrupt();
                    throw e.toDelivery("send");
                }
            }
        }
    }

    /** How long to wait before sending again inline, or null when the outbox should take over. */
    private Duration inlineWait(GraphApiException e, int attempt) {
        if (!e.rateLimited() || attempt >= INLINE_RETRIES) return null;
        Duration base = e.code() == GraphApiException.PAIR_RATE
                ? rateBackoff.multipliedBy(3)
                : e.code() == GraphApiException.THROUGHPUT ? rateBackoff : null;
        if (base == null) return null;
        Duration wait = base.multipliedBy(1L << attempt);
        return wait.compareTo(maxInlineWait) <= 0 ? wait : null;
    }

    /** SPEC RP-5: 👀 on the received message. */
    @Override
    public void received(OutboundTarget target) {
        if (account.ackReactions()) react(target, "\uD83D\uDC40");
    }

    /** SPEC RP-5: the final state replaces 👀 (one reaction per message: a new one replaces it; "" removes it). */
    @Override
    public void settled(OutboundTarget target, InboxState state) {
        if (target.inReplyToMessageId() != null) typingShownAt.remove(target.inReplyToMessageId());
        if (!account.ackReactions()) return;
        react(
                target,
                switch (state) {
                    case DONE -> "\u2705";
                    case FAILED, EXPIRED -> "\u26A0\uFE0F";
                    default -> "";
                });
    }

    /**
     * SPEC RP-5: the typing indicator, which the Cloud API shows with a read mark of the message being answered
     * ({@code status: read}, {@code typing_indicator: {type: text}}; it lasts up to 25 s or until the reply), at most
     * once per {@link #TYPING_EVERY} for one message.
     */
    @Override
    public void typing(OutboundTarget target) {
        String wamid = target.inReplyToMessageId();
        if (wamid == null || isGroup(target.replyTarget())) return;
        long now = System.nanoTime();
        Long shown = typingShownAt.get(wamid);
        if (shown != null && now - shown < TYPING_EVERY.toNanos()) return;
        if (typingShownAt.size() >= MAX_TYPING_KEPT) typingShownAt.clear();
        typingShownAt.put(wamid, now);
        ObjectNode body = GraphApi.JSON
                .createObjectNode()
                .put("messaging_product", "whatsapp")
                .put("status", "read")
                .put("message_id", wamid);
        body.putObject("typing_indicator").put("type", "text");
        background("typing indicator", body);
    }

    private void react(OutboundTarget target, String emoji) {
        String wamid = target.inReplyToMessageId();
        String to = target.replyTarget();
        if (wamid == null || to == null || !to.matches("[A-Za-z0-9_=+/.:@-]{1,256}")) return;
        ObjectNode body = envelope(to, isGroup(to), null);
        body.put("type", "reaction")
                .putObject("reaction")
                .put("message_id", wamid)
                .put("emoji", emoji);
        background("reaction", body);
    }

    private void background(String what, ObjectNode body) {
        io.execute(() -> {
            try {
                api.post(account.phoneNumberId() + "/messages", body, CancelToken.none());
            } catch (GraphApiException e) {
                log.debug("whatsapp: {} not shown: {}", what, e.getMessage());
            } catch (RuntimeException e) {
                log.warn("whatsapp: {} not shown: {}", what, e.toString());
            }
        });
    }
}
