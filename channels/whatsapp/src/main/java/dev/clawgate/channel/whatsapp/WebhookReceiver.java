package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meta's webhook at {@code webhook_path} (SPEC CH-12, IN-1, IN-3, IN-4, IN-5).
 *
 * <ul>
 *   <li>POST: {@code X-Hub-Signature-256} must be {@code sha256=} and the hex HMAC-SHA256 of the raw body under
 *       {@code app_secret}, compared in constant time before the body is parsed. A refused request is answered 401,
 *       counted ({@code clawgate_webhook_rejected_total{channel="whatsapp"}}), logged at most every 10 s, never stored.
 *   <li>Each message is committed to the inbox, and only then is the notification answered 200; a store failure is 503,
 *       so Meta delivers it again, and what was committed comes back as a duplicate (IN-1: the wamid).
 *   <li>Statuses ({@code sent}, {@code delivered}, {@code read}, {@code failed}) go to {@link DeliveryStatuses}; they
 *       never reach the inbox, so never start a turn.
 *   <li>GET: the subscription check, {@link #verify}.
 * </ul>
 */
final class WebhookReceiver implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(WebhookReceiver.class);
    static final String SIGNATURE_HEADER = "X-Hub-Signature-256";
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final MessageReader reader;
    private final DeliveryStatuses statuses;
    private final Supplier<InboundSink> sink;
    private final byte[] secret;
    private final byte[] verifyToken;
    private final Clock clock;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>(Instant.MIN);

    WebhookReceiver(
            WhatsAppAccount account,
            MessageReader reader,
            DeliveryStatuses statuses,
            Supplier<InboundSink> sink,
            Clock clock) {
        this.reader = reader;
        this.statuses = statuses;
        this.sink = sink;
        this.clock = clock;
        this.secret = account.appSecret().getBytes(StandardCharsets.UTF_8);
        this.verifyToken = account.verifyToken().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        String refusal = refusal(request);
        if (refusal != null) return refused(request.remoteAddress(), refusal);
        InboundSink target = sink.get();
        if (target == null) return WebhookRoute.Response.text(503, "not started");
        JsonNode root;
        try {
            root = GraphApi.JSON.readTree(request.body());
        } catch (IOException | RuntimeException e) {
            root = null;
        }
        try {
            if (root == null || !root.isObject()) {
                return skip(
                        target,
                        new MessageReader.Reading.Unreadable(
                                "no-id",
                                "the body is not a JSON object",
                                new String(
                                        request.body() == null ? new byte[0] : request.body(),
                                        StandardCharsets.UTF_8)));
            }
            MessageReader.Notification n = reader.read(root);
            // a status is applied again when the notification comes again: statuses only move forward
            n.statuses().forEach(statuses::update);
            for (MessageReader.Reading r : n.messages()) {
                switch (r) {
                    case MessageReader.Reading.Ignored ignored -> {}
                    case MessageReader.Reading.Unreadable u -> skip(target, u);
                    case MessageReader.Reading.Message m -> {
                        try {
                            target.accept(m.message());
                        } catch (StoreException | IllegalStateException retry) {
                            throw retry;
                        } catch (RuntimeException refused) {
                            skip(
                                    target,
                                    new MessageReader.Reading.Unreadable(
                                            m.message().id(),
                                            "the gateway could not take it: " + refused,
                                            m.message().rawPayload()));
                        }
                        if (m.waId() != null) statuses.customerWrote(m.waId());
                    }
                }
            }
        } catch (StoreException | IllegalStateException e) {
            log.warn("whatsapp: a notification was not recorded, Meta will deliver it again: {}", e.getMessage());
            return WebhookRoute.Response.text(503, "retry later");
        }
        return WebhookRoute.Response.text(200, "ok");
    }

    /**
     * Meta's subscription check: {@code GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...} is answered 200
     * with the challenge when the token is ours (compared in constant time), else 403.
     */
    WebhookRoute.Response verify(Map<String, String> query) {
        String mode = query.get("hub.mode");
        String token = query.get("hub.verify_token");
        String challenge = query.get("hub.challenge");
        boolean ok = "subscribe".equals(mode)
                && token != null
                && challenge != null
                && MessageDigest.isEqual(verifyToken, token.getBytes(StandardCharsets.UTF_8));
        if (!ok) {
            log.warn(
                    "whatsapp: refused a webhook subscription check ({})",
                    token == null ? "no verify token" : "wrong verify token or mode");
            return WebhookRoute.Response.text(403, "forbidden");
        }
        // only the challenge's own characters go back: it is echoed into a response body
        return WebhookRoute.Response.text(200, challenge.replaceAll("[^A-Za-z0-9_.-]", ""));
    }

    private WebhookRoute.Response skip(InboundSink target, MessageReader.Reading.Unreadable u) {
        target.unreadable(UnreadableInbound.of(MessageReader.CHANNEL, "default", u.ref(), u.reason(), u.raw()));
        return WebhookRoute.Response.text(200, "unreadable; recorded");
    }

    /** Why the request is not Meta's, or null when its signature holds. */
    private String refusal(WebhookRoute.Request request) {
        String given = request.header(SIGNATURE_HEADER);
        if (given == null) return "no " + SIGNATURE_HEADER;
        byte[] expected = sign(request.body()).getBytes(StandardCharsets.US_ASCII);
        byte[] actual = given.strip().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, actual) ? null : "a wrong signature";
    }

    /** {@code sha256=} and the hex HMAC-SHA256 of the raw body under the app secret. */
    String sign(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body == null ? new byte[0] : body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private WebhookRoute.Response refused(String from, String why) {
        long n = rejected.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        // a flood of forged requests must not flood the log: one line per interval, carrying the count
        if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
            log.warn("whatsapp: refused a webhook request from {} ({}); {} refused so far", from, why, n);
        }
        return WebhookRoute.Response.text(401, "unauthorized");
    }

    long rejected() {
        return rejected.get();
    }
}
