package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.WebhookRoute;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event request URL at {@code webhook_path} (SPEC CH-11, IN-1, IN-3, IN-5).
 *
 * <ul>
 *   <li>With an {@code encrypt_key}: the body must be {@code {"encrypt": ...}} decrypting under it, and an event must
 *       carry a valid {@code X-Lark-Signature} (the {@code url_verification} request, encrypted, is proven by the
 *       decryption and its token). Without one, the plain body is taken.
 *   <li>Every request's token ({@code header.token} of a v2.0 event, {@code token} of url_verification) must equal
 *       {@code verification_token}, compared in constant time. A refused request is 401, counted, logged at most every
 *       10 s, never stored.
 *   <li>{@code url_verification} is answered {@code {"challenge": ...}}.
 *   <li>{@code im.message.receive_v1} is committed to the inbox, and only then answered 200; a store failure is 503, so
 *       the platform pushes it again. A redelivered event is known by its {@code event_id} (and the inbox dedupes its
 *       {@code message_id}, IN-1), answered 200 and not read again.
 * </ul>
 */
final class EventReceiver implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(EventReceiver.class);
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final EventIntake intake;
    private final byte[] verificationToken;
    private final EventCrypto crypto;
    private final Clock clock;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>(Instant.MIN);

    EventReceiver(LarkAccount account, EventIntake intake, Clock clock) {
        this.intake = intake;
        this.clock = clock;
        this.verificationToken = account.verificationToken().getBytes(StandardCharsets.UTF_8);
        this.crypto = account.encryptKey() == null ? null : new EventCrypto(account.encryptKey());
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        byte[] raw = request.body() == null ? new byte[0] : request.body();
        JsonNode root = parse(new String(raw, StandardCharsets.UTF_8));
        if (root == null) return refused(request.remoteAddress(), "a body that is not JSON");
        if (crypto != null) {
            String plain =
                    root.has("encrypt") ? crypto.decrypt(root.path("encrypt").asText("")) : null;
            if (plain == null) return refused(request.remoteAddress(), "a body not encrypted with our encrypt_key");
            root = parse(plain);
            if (root == null) return refused(request.remoteAddress(), "an encrypted body that is not JSON");
        }
        if ("url_verification".equals(root.path("type").asText())) {
            if (!tokenMatches(root.path("token").asText(null))) {
                return refused(request.remoteAddress(), "a url_verification with a wrong token");
            }
            String challenge = root.path("challenge").asText("");
            return new WebhookRoute.Response(
                    200,
                    "application/json",
                    LarkApi.JSON
                            .createObjectNode()
                            .put("challenge", challenge)
                            .toString()
                            .getBytes(StandardCharsets.UTF_8));
        }
        if (crypto != null
                && !crypto.signatureHolds(
                        request.header(EventCrypto.TIMESTAMP),
                        request.header(EventCrypto.NONCE),
                        request.header(EventCrypto.SIGNATURE),
                        raw)) {
            return refused(request.remoteAddress(), "a missing or wrong " + EventCrypto.SIGNATURE);
        }
        JsonNode header = root.path("header");
        if (!"2.0".equals(root.path("schema").asText())
                || !tokenMatches(header.path("token").asText(null))) {
            return refused(request.remoteAddress(), "not a v2.0 event with our verification token");
        }
        return switch (intake.take(root)) {
            case TAKEN -> WebhookRoute.Response.text(200, "ok");
            case NOT_STARTED -> WebhookRoute.Response.text(503, "not started");
            case RETRY -> {
                log.warn("lark: an event was not recorded, the platform will push it again");
                yield WebhookRoute.Response.text(503, "retry later");
            }
        };
    }

    private boolean tokenMatches(String token) {
        return token != null && MessageDigest.isEqual(verificationToken, token.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode parse(String s) {
        try {
            JsonNode n = LarkApi.JSON.readTree(s);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    private WebhookRoute.Response refused(String from, String why) {
        long n = rejected.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        // a flood of forged requests must not flood the log: one line per interval, carrying the count
        if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
            log.warn("lark: refused an event request from {} ({}); {} refused so far", from, why, n);
        }
        return WebhookRoute.Response.text(401, "unauthorized");
    }

    long rejected() {
        return rejected.get();
    }
}
