package dev.clawgate.channel.slack;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST webhook_path}: the Events API (SPEC CH-4, IN-3, IN-4, IN-5).
 *
 * <ul>
 *   <li>Every request is checked first: {@code X-Slack-Signature} must be {@code v0=} and the hex HMAC-SHA256 of
 *       {@code v0:<X-Slack-Request-Timestamp>:<raw body>} under the signing secret, compared in constant time, and the
 *       timestamp within 5 minutes of now (a replayed request is refused). A refused request is answered 401, counted
 *       ({@code clawgate_webhook_rejected_total{channel="slack"}}), logged at most every 10 s, never stored.
 *   <li>{@code url_verification} is answered with its {@code challenge}.
 *   <li>A message is committed to the inbox and only then answered 200 (Slack waits 3 s); a store failure is 503, so
 *       Slack retries; a retry of a recorded message is a duplicate in the inbox (IN-1) and answered 200.
 *   <li>An event that cannot be read is kept as failed and answered 200 (IN-4: never redelivered for ever).
 * </ul>
 */
final class EventsReceiver implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(EventsReceiver.class);
    static final String SIGNATURE_HEADER = "X-Slack-Signature";
    static final String TIMESTAMP_HEADER = "X-Slack-Request-Timestamp";
    /** Slack's advice: refuse a request whose timestamp is more than five minutes from now (a replay). */
    static final Duration MAX_SKEW = Duration.ofMinutes(5);

    private static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final SlackBot bot;
    private final EventReader reader;
    private final Supplier<InboundSink> sink;
    private final byte[] secret;
    private final Clock clock;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>(Instant.MIN);

    EventsReceiver(SlackBot bot, EventReader reader, Supplier<InboundSink> sink, Clock clock) {
        this.bot = bot;
        this.reader = reader;
        this.sink = sink;
        this.clock = clock;
        this.secret = bot.account.signingSecret().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        String refusal = refusal(request);
        if (refusal != null) return refused(request, refusal);
        JsonNode body;
        try {
            body = SlackApi.JSON.readTree(request.body());
        } catch (IOException | RuntimeException e) {
            body = null;
        }
        if (body != null && "url_verification".equals(body.path("type").asText())) {
            String challenge = body.path("challenge").asText("");
            return new WebhookRoute.Response(
                    200,
                    "application/json",
                    SlackApi.JSON
                            .createObjectNode()
                            .put("challenge", challenge)
                            .toString()
                            .getBytes(StandardCharsets.UTF_8));
        }
        InboundSink target = sink.get();
        if (target == null || !bot.identified()) return WebhookRoute.Response.text(503, "not started");
        String ref = body == null ? "no-id" : body.path("event_id").asText("no-id");
        EventReader.Reading reading =
                body == null ? new EventReader.Reading.Unreadable("the body is not JSON") : reader.read(body);
        try {
            return switch (reading) {
                case EventReader.Reading.Ignored ignored -> WebhookRoute.Response.text(200, "ignored");
                case EventReader.Reading.Unreadable u -> skip(target, ref, u.reason(), request.body());
                case EventReader.Reading.Message m -> {
                    try {
                        target.accept(m.message());
                        yield WebhookRoute.Response.text(200, "ok");
                    } catch (StoreException | IllegalStateException retry) {
                        throw retry;
                    } catch (RuntimeException refused) {
                        yield skip(target, ref, "the gateway could not take it: " + refused, request.body());
                    }
                }
            };
        } catch (StoreException | IllegalStateException e) {
            log.warn("slack [{}]: event {} not recorded, Slack will retry: {}", bot.account.id(), ref, e.getMessage());
            return WebhookRoute.Response.text(503, "retry later");
        }
    }

    private WebhookRoute.Response skip(InboundSink target, String ref, String reason, byte[] body) {
        String raw = new String(body == null ? new byte[0] : body, StandardCharsets.UTF_8);
        target.unreadable(UnreadableInbound.of(EventReader.CHANNEL, bot.account.id(), ref, reason, raw));
        return WebhookRoute.Response.text(200, "unreadable; recorded");
    }

    /** Why the request is not Slack's, or null when its signature and timestamp hold. */
    private String refusal(WebhookRoute.Request request) {
        String ts = request.header(TIMESTAMP_HEADER);
        String given = request.header(SIGNATURE_HEADER);
        if (ts == null || given == null) return "no signature headers";
        long seconds;
        try {
            seconds = Long.parseLong(ts.strip());
        } catch (NumberFormatException e) {
            return "a timestamp that is not a number";
        }
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - seconds) > MAX_SKEW.toSeconds())
            return "a timestamp more than 5 minutes from now (a replay?)";
        byte[] expected = sign(seconds, request.body()).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, given.strip().getBytes(StandardCharsets.UTF_8)))
            return "a wrong signature";
        return null;
    }

    /** {@code v0=} and the hex HMAC-SHA256 of {@code v0:<timestamp>:<body>}. */
    String sign(long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
            return "v0=" + HexFormat.of().formatHex(mac.doFinal(body == null ? new byte[0] : body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private WebhookRoute.Response refused(WebhookRoute.Request request, String why) {
        long n = rejected.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        // a flood of forged requests must not flood the log: one line per interval, carrying the count
        if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
            log.warn(
                    "slack [{}]: refused an Events API request from {} ({}); {} refused so far",
                    bot.account.id(),
                    request.remoteAddress(),
                    why,
                    n);
        }
        return WebhookRoute.Response.text(401, "unauthorized");
    }

    long rejected() {
        return rejected.get();
    }
}
