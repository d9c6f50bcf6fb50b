package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.CumulativeAck;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long polling for one bot (SPEC CH-3, CH-0): {@code deleteWebhook}, then {@code getUpdates}
 * with the offset as a cumulative ack (IN-3). At {@code after_receive_record} (the default) an
 * update is confirmed once the sink returned for it and every update before it; at
 * {@code after_durable_send} once, in addition, its record reached a final state in the store
 * (its final reply committed with the turn, or no reply is due), so an update whose reply has no
 * durable decision when the process dies is delivered again (and caught by dedupe). Updates the
 * offset still holds back come again in every poll: they are skipped, not handed to the sink
 * again, and a poll that brought nothing new waits {@link #HELD_BACK_PAUSE} before the next.
 * Any failure (network, 5xx, 409, a broken sink) restarts the loop after an exponential backoff
 * and shows as unhealthy meanwhile; a 429 waits at least the {@code retry_after} Telegram named.
 */
final class PollingLoop {
    private static final Logger log = LoggerFactory.getLogger(PollingLoop.class);
    static final int POLL_SECONDS = 25;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
    /** Telegram answers at once while unconfirmed updates wait: this keeps a held-back offset from spinning. */
    static final Duration HELD_BACK_PAUSE = Duration.ofMillis(300);

    private final Bot bot;
    private final UpdateReader reader;
    private final InboundSink sink;
    private final CumulativeAck ack;
    private volatile boolean running = true;
    private volatile ChannelHealth health = ChannelHealth.down("starting");
    private Thread thread;

    PollingLoop(Bot bot, UpdateReader reader, InboundSink sink, AckPolicy policy) {
        this.bot = bot;
        this.reader = reader;
        this.sink = sink;
        // later stages are read from the store through the sink (ARCHITECTURE: a later stage signals only through the store)
        this.ack = new CumulativeAck(policy, sink::recordState, 0);
    }

    void start() {
        thread = Thread.ofVirtual().name("telegram-poll-" + bot.account.id()).start(this::supervise);
    }

    void stop() {
        running = false;
        if (thread != null) thread.interrupt();
    }

    ChannelHealth health() {
        return health;
    }

    private void supervise() {
        Duration backoff = FIRST_BACKOFF;
        boolean webhookDeleted = false;
        while (running) {
            try {
                if (!bot.identified()) bot.identify();
                if (!webhookDeleted) {
                    bot.api.call("deleteWebhook", BotApi.JSON.createObjectNode().put("drop_pending_updates", false));
                    webhookDeleted = true;
                }
                if (health.detail().equals("starting")) health = ChannelHealth.UP;
                // after a failure the first poll does not wait, so health reflects recovery at once
                boolean fresh = pollOnce(health.healthy() ? POLL_SECONDS : 0);
                if (!fresh && ack.pending() > 0 && !sleep(HELD_BACK_PAUSE)) return;
                if (!health.healthy()) log.info("telegram [{}]: polling works again", bot.account.id());
                health = ChannelHealth.UP;
                backoff = FIRST_BACKOFF;
            } catch (BotApiException | RuntimeException e) {
                if (!running) return;
                String why = bot.api.redact(e.getMessage());
                Duration wait = backoff;
                if (e instanceof BotApiException b && b.code() == 429 && b.retryAfter() != null) {
                    // never poll sooner than Telegram says (SPEC CH-3, OUT-7's rule for sends applies to polls too)
                    Duration asked = Duration.ofSeconds(b.retryAfter());
                    if (asked.compareTo(wait) > 0) wait = asked;
                    health = ChannelHealth.down("rate-limited by Telegram, polling again in " + wait.toSeconds() + " s");
                    log.warn("telegram [{}]: getUpdates rate-limited; polling again in {} s as Telegram asks", bot.account.id(),
                            wait.toSeconds());
                    if (!sleep(wait)) return;
                    continue;
                }
                health = ChannelHealth.down("polling failed, retrying in " + backoff.toMillis() + " ms: " + why);
                if (e instanceof BotApiException b && b.code() == 401) {
                    log.error("telegram [{}]: Telegram rejects the bot token (401 Unauthorized); set channels.telegram bot_token to the "
                            + "token @BotFather gave. Retrying in {} ms", bot.account.id(), backoff.toMillis());
                } else if (e instanceof BotApiException b && b.code() == 409) {
                    log.error("telegram [{}]: {}; another process polls this bot or a webhook is set. Stop the other poller. "
                            + "Retrying in {} ms", bot.account.id(), why, backoff.toMillis());
                } else {
                    log.warn("telegram [{}]: polling failed, retrying in {} ms: {}", bot.account.id(), backoff.toMillis(), why);
                }
                if (!sleep(backoff)) return;
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** One {@code getUpdates}; true when it brought an update not seen before. */
    private boolean pollOnce(int timeoutSeconds) throws BotApiException {
        long offset = ack.offset();
        // while updates wait for their turn's reply, the poll must come back soon to confirm them
        int timeout = ack.pending() > 0 ? 0 : timeoutSeconds;
        ObjectNode params = BotApi.JSON.createObjectNode().put("offset", offset).put("timeout", timeout);
        params.putArray("allowed_updates").add("message");
        JsonNode updates = bot.api.call("getUpdates", params, Duration.ofSeconds(POLL_SECONDS + 15));
        boolean fresh = false;
        for (JsonNode update : updates) {
            long seq = update.path("update_id").asLong();
            if (!ack.received(seq)) continue;
            fresh = true;
            InboundMessage message = reader.read(update);
            // an update we do not handle is acknowledged as if recorded: nothing waits for it
            InboundSink.Acceptance accepted = message == null ? InboundSink.Acceptance.DUPLICATE : sink.accept(message);
            ack.recorded(seq, accepted);
        }
        return fresh;
    }

    private boolean sleep(Duration d) {
        try {
            Thread.sleep(d);
            return running;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
