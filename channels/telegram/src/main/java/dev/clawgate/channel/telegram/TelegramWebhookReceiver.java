package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
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
 * {@code POST webhook_path} (SPEC CH-3, IN-3/IN-4): checks {@code X-Telegram-Bot-Api-Secret-Token}
 * in constant time (a request without it is refused 401, counted, logged at most every 10 s, never
 * stored), records the update, and answers 200 only after the sink returned; a store failure is 503
 * so Telegram delivers the update again.
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
        String given = request.header(SECRET_HEADER);
        if (given == null || !MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8))) {
            long n = rejected.incrementAndGet();
            Instant now = clock.instant();
            Instant last = lastLogged.get();
            // a flood of forged requests must not flood the log: one line per interval, carrying the count
            if ((last == Instant.MIN || !now.isBefore(last.plus(LOG_EVERY))) && lastLogged.compareAndSet(last, now)) {
                log.warn("telegram [{}]: refused a webhook request from {} ({}); {} refused so far", bot.account.id(), request.remoteAddress(),
                        given == null ? "no secret header" : "wrong secret", n);
            }
            return WebhookRoute.Response.text(401, "unauthorized");
        }
        InboundSink target = sink.get();
        if (target == null || !bot.identified()) return WebhookRoute.Response.text(503, "not started");
        JsonNode update;
        try {
            update = BotApi.JSON.readTree(request.body());
        } catch (IOException e) {
            return WebhookRoute.Response.text(400, "body is not JSON");
        }
        if (update == null || !update.isObject()) return WebhookRoute.Response.text(400, "body is not an update");
        InboundMessage message = reader.read(update);
        if (message == null) return WebhookRoute.Response.text(200, "ignored");
        try {
            target.accept(message);
        } catch (StoreException | IllegalStateException e) {
            log.warn("telegram [{}]: update {} not recorded, Telegram will retry: {}", bot.account.id(), update.path("update_id").asLong(),
                    e.getMessage());
            return WebhookRoute.Response.text(503, "retry later");
        }
        return WebhookRoute.Response.text(200, "ok");
    }

    long rejected() {
        return rejected.get();
    }
}
