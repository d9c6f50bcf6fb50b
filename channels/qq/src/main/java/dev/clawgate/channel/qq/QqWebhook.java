package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callback URL at {@code webhook_path} ({@code mode = "webhook"}; SPEC CH-13, IN-1, IN-3, IN-5). Every request must
 * carry {@code X-Signature-Ed25519} over {@code X-Signature-Timestamp + body} under the key seeded from the bot secret
 * ({@link QqSigner}), the validation request too: answering an unsigned one would sign what a stranger chose. Op 13
 * (callback validation) is answered {@code {"plain_token", "signature"}}, the signature of {@code event_ts +
 * plain_token}; op 0 (a dispatch) is committed to the inbox and only then answered {@code {"op": 12, "d": 0}} (the HTTP
 * callback ACK); a store failure is 503, so the platform pushes it again. A refused request is 401, counted, logged at
 * most every 10 s, never stored.
 */
final class QqWebhook implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(QqWebhook.class);
    static final String SIGNATURE = "X-Signature-Ed25519";
    static final String TIMESTAMP = "X-Signature-Timestamp";
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);

    /** Takes a dispatch: throws a store failure when it was not recorded. */
    interface Dispatch {
        void handle(String type, JsonNode payload);
    }

    private final QqSigner signer;
    private final Dispatch dispatch;
    private final Clock clock;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>(Instant.MIN);

    QqWebhook(QqSigner signer, Dispatch dispatch, Clock clock) {
        this.signer = signer;
        this.dispatch = dispatch;
        this.clock = clock;
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        byte[] raw = request.body() == null ? new byte[0] : request.body();
        if (!signer.verifies(request.header(TIMESTAMP), raw, request.header(SIGNATURE))) {
            return refused(request.remoteAddress(), "a missing or wrong " + SIGNATURE);
        }
        JsonNode root = QqApi.parse(new String(raw, StandardCharsets.UTF_8));
        if (root == null || !root.isObject()) return refused(request.remoteAddress(), "a signed body that is not JSON");
        int op = root.path("op").asInt(-1);
        if (op == 13) {
            String plain = root.path("d").path("plain_token").asText("");
            String ts = root.path("d").path("event_ts").asText("");
            String signature = signer.sign((ts + plain).getBytes(StandardCharsets.UTF_8));
            return json(QqApi.JSON
                    .createObjectNode()
                    .put("plain_token", plain)
                    .put("signature", signature)
                    .toString());
        }
        if (op != 0) return ack();
        try {
            dispatch.handle(root.path("t").asText(""), root);
        } catch (StoreException | IllegalStateException e) {
            log.warn("qq: a pushed event was not recorded, the platform will push it again: {}", e.getMessage());
            return WebhookRoute.Response.text(503, "retry later");
        }
        return ack();
    }

    private static WebhookRoute.Response ack() {
        return json("{\"op\":12,\"d\":0}");
    }

    private static WebhookRoute.Response json(String body) {
        return new WebhookRoute.Response(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private WebhookRoute.Response refused(String from, String why) {
        long n = rejected.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        // a flood of forged requests must not flood the log: one line per interval, carrying the count
        if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
            log.warn("qq: refused a callback request from {} ({}); {} refused so far", from, why, n);
        }
        return WebhookRoute.Response.text(401, "unauthorized");
    }

    long rejected() {
        return rejected.get();
    }
}
