package dev.clawgate.channel.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST {path}}: checks the signature, parses the body and hands the message to the inbox,
 * answering 200 only once the sink returned, i.e. the record committed (SPEC IN-3
 * {@code after_receive_record}, IN-4). A duplicate is 200 too; a store failure is 503 so the
 * platform retries; nothing is stored for a bad signature (401) or a bad body (400).
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

    WebhookReceiver(String channel, String path, WebhookSignature signature, Supplier<InboundSink> sink,
                    RejectionLog rejections, Clock clock) {
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
            rejections.reject(path, request.remoteAddress(), given == null ? "no " + WebhookSignature.HEADER + " header" : "bad signature");
            return error(401, "missing or invalid " + WebhookSignature.HEADER);
        }
        InboundMessage message;
        try {
            message = WebhookPayload.parse(body, channel, clock::instant);
        } catch (WebhookPayload.Invalid e) {
            log.info("webhook {}: rejected a signed request: {}", path, e.getMessage());
            return error(400, e.getMessage());
        }
        InboundSink target = sink.get();
        if (target == null) return error(503, "channel is not started");
        InboundSink.Acceptance accepted;
        try {
            accepted = target.accept(message);
        } catch (StoreException e) {
            log.warn("webhook {}: message {} not recorded, the platform will retry: {}", path, message.id(), e.getMessage());
            return error(503, "store unavailable; retry later");
        } catch (IllegalStateException e) {
            log.warn("webhook {}: message {} not accepted while the gateway stops: {}", path, message.id(), e.getMessage());
            return error(503, "gateway is stopping; retry later");
        }
        ObjectNode ok = MAPPER.createObjectNode().put("ok", true);
        if (accepted.duplicate()) ok.put("duplicate", true);
        else ok.put("inbox_id", accepted.inboxId());
        return json(200, ok);
    }

    private static WebhookRoute.Response error(int status, String message) {
        return json(status, MAPPER.createObjectNode().put("ok", false).put("error", message));
    }

    private static WebhookRoute.Response json(int status, ObjectNode body) {
        return new WebhookRoute.Response(status, JSON, body.toString().getBytes(StandardCharsets.UTF_8));
    }
}
