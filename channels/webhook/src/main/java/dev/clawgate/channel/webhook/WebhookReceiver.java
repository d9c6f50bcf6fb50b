package dev.clawgate.channel.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST {path}}: checks the signature, parses the body and hands the message to the inbox, answering 200 only
 * once the sink returned, i.e. the record committed (SPEC IN-3 {@code after_receive_record}, IN-4). A duplicate is 200
 * too; a store failure is 503 so the platform retries; nothing is stored for a bad signature (401); a signed body that
 * cannot be read is kept as unreadable and answered 400 (IN-4: a poison message never blocks the stream).
 */
final class WebhookReceiver implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(WebhookReceiver.class);
    private static final String JSON = "application/json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String channel;
    private final String path;
    private final WebhookSignature signature;
    private final Supplier<InboundSink> sink;
    private final RejectionLog rejections;
    private final Clock clock;

    WebhookReceiver(
            String channel,
            String path,
            WebhookSignature signature,
            Supplier<InboundSink> sink,
            RejectionLog rejections,
            Clock clock) {
        this.channel = channel;
        this.path = path;
        this.signature = signature;
        this.sink = sink;
        this.rejections = rejections;
        this.clock = clock;
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        byte[] body = request.body() == null ? new byte[0] : request.body();
        String given = request.header(WebhookSignature.HEADER);
        if (!signature.verifies(body, given)) {
            rejections.reject(
                    path,
                    request.remoteAddress(),
                    given == null ? "no " + WebhookSignature.HEADER + " header" : "bad signature");
            return error(401, "missing or invalid " + WebhookSignature.HEADER);
        }
        InboundSink target = sink.get();
        if (target == null) return error(503, "channel is not started");
        InboundMessage message;
        try {
            message = WebhookPayload.parse(body, channel, clock::instant);
        } catch (WebhookPayload.Invalid e) {
            log.info("webhook {}: rejected a signed request: {}", path, e.getMessage());
            return unreadable(target, body, e.getMessage());
        }
        InboundSink.Acceptance accepted;
        try {
            accepted = target.accept(message);
        } catch (StoreException e) {
            log.warn(
                    "webhook {}: message {} not recorded, the platform will retry: {}",
                    path,
                    message.id(),
                    e.getMessage());
            return error(503, "store unavailable; retry later");
        } catch (IllegalStateException e) {
            log.warn(
                    "webhook {}: message {} not accepted while the gateway stops: {}",
                    path,
                    message.id(),
                    e.getMessage());
            return error(503, "gateway is stopping; retry later");
        } catch (RuntimeException e) {
            // the message itself is what the gateway cannot take: kept, and answered for good (SPEC IN-4)
            return unreadable(target, body, "the gateway could not take message " + message.id() + ": " + e);
        }
        ObjectNode ok = MAPPER.createObjectNode().put("ok", true);
        if (accepted.duplicate()) ok.put("duplicate", true);
        else ok.put("inbox_id", accepted.inboxId());
        // SPEC OP-10: received and answered (the sender gets a notice on the callback), so 2xx: nothing to send again
        if (accepted.refused()) ok.put("refused", accepted.refusal());
        return json(200, ok);
    }

    /**
     * SPEC IN-4, CH-0: a signed body the gateway cannot read is kept as failed (raw body bounded, see {@code clawgate
     * inbox}) and answered 400 with the reason, which the platform does not retry; if it cannot be kept, 503, so the
     * platform tries again.
     */
    private WebhookRoute.Response unreadable(InboundSink target, byte[] body, String reason) {
        String raw = new String(body, StandardCharsets.UTF_8);
        try {
            target.unreadable(
                    UnreadableInbound.of(channel, InboundMessage.DEFAULT_ACCOUNT, platformRef(body), reason, raw));
        } catch (StoreException e) {
            log.warn(
                    "webhook {}: an unreadable request was not recorded, the platform will retry: {}",
                    path,
                    e.getMessage());
            return error(503, "store unavailable; retry later");
        }
        return error(400, reason);
    }

    /** The body's {@code id} when it has a usable one, else a hash of the body: one record per body. */
    private static String platformRef(byte[] body) {
        String hash = "body-" + Integer.toHexString(java.util.Arrays.hashCode(body));
        JsonNode id;
        try {
            id = MAPPER.readTree(body).path("id");
        } catch (java.io.IOException | RuntimeException notJson) {
            return hash;
        }
        String text = id.isTextual() || id.isIntegralNumber() ? id.asText() : "";
        return !text.isBlank() && text.length() <= 200 ? text : hash;
    }

    /**
     * SPEC OP-10: a body over {@code gateway.max_body_bytes} is not read (so its signature cannot be checked) and is
     * answered 413; like every 4xx but 408 and 429 it says "do not send this again".
     */
    WebhookRoute.Response oversized(WebhookRoute.Request headersOnly, long limitBytes) {
        log.info(
                "webhook {}: refused a request from {} over the body limit of {} bytes",
                path,
                headersOnly.remoteAddress(),
                limitBytes);
        return error(
                413,
                "the body is over the gateway's limit of " + limitBytes
                        + " bytes; it is refused however often it is sent");
    }

    private static WebhookRoute.Response error(int status, String message) {
        return json(status, MAPPER.createObjectNode().put("ok", false).put("error", message));
    }

    private static WebhookRoute.Response json(int status, ObjectNode body) {
        return new WebhookRoute.Response(status, JSON, body.toString().getBytes(StandardCharsets.UTF_8));
    }
}
