package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST webhook_path} (SPEC CH-3, IN-3/IN-4): checks {@code X-Telegram-Bot-Api-Secret-Token} in constant time (a
 * request without it is refused 401, counted, logged at most every 10 s, never stored), records the update, and answers
 * 200 only after the sink returned; a store failure is 503 so Telegram delivers the update again. An update that cannot
 * be read is kept as failed and answered 200 (SPEC IN-4: a poison update is not delivered for ever).
 */
final class TelegramWebhookReceiver implements WebhookRoute.Handler {
    private static final Logger log = LoggerFactory.getLogger(TelegramWebhookReceiver.class);
    static final String SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";
    private static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final Bot bot;
    private final UpdateReader reader;
    private final Supplier<InboundSink> sink;
    private final byte[] secret;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>(Instant.MIN);
    private final Clock clock;

    TelegramWebhookReceiver(Bot bot, UpdateReader reader, Supplier<InboundSink> sink) {
        this(bot, reader, sink, Clock.systemUTC());
    }

    /** @param clock times the rate limit of the refusal log line */
    TelegramWebhookReceiver(Bot bot, UpdateReader reader, Supplier<InboundSink> sink, Clock clock) {
        this.bot = bot;
        this.reader = reader;
        this.sink = sink;
        this.clock = clock;
        this.secret = bot.account.webhookSecret().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public WebhookRoute.Response handle(WebhookRoute.Request request) {
        if (!secretMatches(request)) return refused(request);
        InboundSink target = sink.get();
        if (target == null || !bot.identified()) return WebhookRoute.Response.text(503, "not started");
        JsonNode update;
        try {
            update = BotApi.JSON.readTree(request.body());
        } catch (IOException | RuntimeException e) {
            update = null;
        }
        Long seq = UpdateReader.updateId(update);
        String ref = seq != null
                ? seq.toString()
                : "no-id-" + Integer.toHexString(java.util.Arrays.hashCode(request.body()));
        UpdateReader.Reading reading =
                update == null ? new UpdateReader.Reading.Unreadable("the body is not JSON") : reader.read(update);
        try {
            return switch (reading) {
                case UpdateReader.Reading.Ignored ignored -> WebhookRoute.Response.text(200, "ignored");
                case UpdateReader.Reading.Unreadable u -> skip(target, ref, u.reason(), request.body());
                case UpdateReader.Reading.Message m -> {
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
            log.warn(
                    "telegram [{}]: update {} not recorded, Telegram will retry: {}",
                    bot.account.id(),
                    ref,
                    e.getMessage());
            return WebhookRoute.Response.text(503, "retry later");
        }
    }

    /**
     * SPEC IN-4, CH-0: an update that cannot be read is kept as failed and answered 200, so Telegram does not deliver
     * it again and again (it retries anything else).
     */
    private WebhookRoute.Response skip(InboundSink target, String ref, String reason, byte[] body) {
        String raw = new String(body == null ? new byte[0] : body, StandardCharsets.UTF_8);
        target.unreadable(UnreadableInbound.of(UpdateReader.CHANNEL, bot.account.id(), ref, reason, raw));
        return WebhookRoute.Response.text(200, "unreadable; recorded");
    }

    /**
     * SPEC OP-10: an update over {@code gateway.max_body_bytes} is not read. Telegram repeats every update answered
     * with anything but 2xx, so one sent with our secret is answered 200 and dropped, with a warning; Telegram's own
     * updates never come near the limit (a message holds at most 4,096 characters), so such a request is not Telegram's
     * to begin with.
     */
    WebhookRoute.Response oversized(WebhookRoute.Request headersOnly, long limitBytes) {
        if (!secretMatches(headersOnly)) return refused(headersOnly);
        log.warn(
                "telegram [{}]: dropped a webhook update from {} over the body limit of {} bytes "
                        + "(gateway.max_body_bytes); answered 200 so that Telegram does not send it again",
                bot.account.id(),
                headersOnly.remoteAddress(),
                limitBytes);
        return WebhookRoute.Response.text(200, "dropped: the update is over the gateway's body limit");
    }

    private boolean secretMatches(WebhookRoute.Request request) {
        String given = request.header(SECRET_HEADER);
        return given != null && MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8));
    }

    private WebhookRoute.Response refused(WebhookRoute.Request request) {
        String given = request.header(SECRET_HEADER);
        long n = rejected.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        // a flood of forged requests must not flood the log: one line per interval, carrying the count
        if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
            log.warn(
                    "telegram [{}]: refused a webhook request from {} ({}); {} refused so far",
                    bot.account.id(),
                    request.remoteAddress(),
                    given == null ? "no secret header" : "wrong secret",
                    n);
        }
        return WebhookRoute.Response.text(401, "unauthorized");
    }

    long rejected() {
        return rejected.get();
    }
}
