package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.CumulativeAck;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long polling for one bot (SPEC CH-3, CH-0): {@code deleteWebhook}, then {@code getUpdates} with the offset as a
 * cumulative ack (IN-3). At {@code after_receive_record} (the default) an update is confirmed once the sink returned
 * for it and every update before it; at {@code after_durable_send} once, in addition, its record reached a final state
 * in the store (its final reply committed with the turn, or no reply is due), so an update whose reply has no durable
 * decision when the process dies is delivered again (and caught by dedupe). Updates the offset still holds back come
 * again in every poll: they are skipped, not handed to the sink again, and a poll that brought nothing new waits
 * {@link #HELD_BACK_PAUSE} before the next. An update that cannot be read is kept as failed and confirmed like a
 * recorded one (IN-4: a poison update never holds the stream). Any other failure (network, 5xx, 409, the store)
 * restarts the loop after an exponential backoff and shows as unhealthy meanwhile; a 429 waits at least the
 * {@code retry_after} Telegram named.
 */
final class PollingLoop {
    private static final Logger log = LoggerFactory.getLogger(PollingLoop.class);
    static final int POLL_SECONDS = 25;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
    /** Telegram answers at once while unconfirmed updates wait: this keeps a held-back offset from spinning. */
    static final Duration HELD_BACK_PAUSE = Duration.ofMillis(300);
    /** How long {@link #stop} waits for the loop to end. */
    static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final Bot bot;
    private final UpdateReader reader;
    private final InboundSink sink;
    private final CumulativeAck ack;
    private volatile boolean running = true;
    /** The last poll brought an update without a usable id: only a later update's offset can confirm it. */
    private boolean withoutId;

    private volatile ChannelHealth health = ChannelHealth.down("starting");
    private Thread thread;

    PollingLoop(Bot bot, UpdateReader reader, InboundSink sink, AckPolicy policy) {
        this.bot = bot;
        this.reader = reader;
        this.sink = sink;
        // later stages are read from the store through the sink (ARCHITECTURE: a later stage signals only through the
        // store)
        this.ack = new CumulativeAck(policy, sink::recordState, 0);
    }

    void start() {
        thread = Thread.ofVirtual().name("telegram-poll-" + bot.account.id()).start(this::supervise);
    }

    /**
     * Stops polling and waits (a bounded while) until the loop ended, so a loop started next never polls beside it
     * (Telegram answers a second poller with 409). What this loop had not confirmed comes again to the next one (SPEC
     * IN-4: nothing is confirmed before the inbox committed it).
     */
    void stop() {
        running = false;
        Thread t = thread;
        if (t == null) return;
        t.interrupt();
        if (t == Thread.currentThread()) return;
        try {
            if (!t.join(STOP_WAIT))
                log.warn(
                        "telegram [{}]: the polling loop did not end within {} s",
                        bot.account.id(),
                        STOP_WAIT.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
                // an update the offset cannot pass yet comes back at once: pause instead of spinning
                if (!fresh && (ack.pending() > 0 || withoutId) && !sleep(HELD_BACK_PAUSE)) return;
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
                    health =
                            ChannelHealth.down("rate-limited by Telegram, polling again in " + wait.toSeconds() + " s");
                    log.warn(
                            "telegram [{}]: getUpdates rate-limited; polling again in {} s as Telegram asks",
                            bot.account.id(),
                            wait.toSeconds());
                    if (!sleep(wait)) return;
                    continue;
                }
                health = ChannelHealth.down("polling failed, retrying in " + backoff.toMillis() + " ms: " + why);
                if (e instanceof BotApiException b && b.code() == 401) {
                    log.error(
                            "telegram [{}]: Telegram rejects the bot token (401 Unauthorized); set channels.telegram "
                                    + "bot_token to the "
                                    + "token @BotFather gave. Retrying in {} ms",
                            bot.account.id(),
                            backoff.toMillis());
                } else if (e instanceof BotApiException b && b.code() == 409) {
                    log.error(
                            "telegram [{}]: {}; another process polls this bot or a webhook is set. Stop the other "
                                    + "poller. "
                                    + "Retrying in {} ms",
                            bot.account.id(),
                            why,
                            backoff.toMillis());
                } else {
                    log.warn(
                            "telegram [{}]: polling failed, retrying in {} ms: {}",
                            bot.account.id(),
                            backoff.toMillis(),
                            why);
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
        withoutId = false;
        for (JsonNode update : updates) {
            Long seq = UpdateReader.updateId(update);
            // without an id it cannot be confirmed on its own; the next update's offset passes it (cumulative)
            if (seq == null) {
                withoutId = true;
                String raw = String.valueOf(update);
                String ref = "no-id-" + Integer.toHexString(raw.hashCode());
                sink.unreadable(UnreadableInbound.of(
                        UpdateReader.CHANNEL,
                        bot.account.id(),
                        ref,
                        "update_id is missing or not a whole number",
                        raw));
                continue;
            }
            if (!ack.received(seq)) continue;
            fresh = true;
            ack.recorded(seq, take(update, seq));
        }
        return fresh;
    }

    /**
     * Hands one update to the sink (SPEC IN-4, CH-0): a message is recorded; one that cannot be read, or that the
     * gateway refuses for what it holds, is kept as failed and acknowledged like a recorded one, so a poison update
     * never holds the offset back. A store failure or a stopping gateway propagates: nothing is acknowledged and the
     * poll is tried again.
     */
    private InboundSink.Acceptance take(JsonNode update, long seq) {
        return switch (reader.read(update)) {
            case UpdateReader.Reading.Ignored ignored -> InboundSink.Acceptance.DUPLICATE;
            case UpdateReader.Reading.Unreadable u -> skip(update, seq, u.reason());
            case UpdateReader.Reading.Message m -> {
                try {
                    yield sink.accept(m.message());
                } catch (StoreException | IllegalStateException retry) {
                    throw retry;
                } catch (RuntimeException refused) {
                    yield skip(update, seq, "the gateway could not take it: " + refused);
                }
            }
        };
    }

    private InboundSink.Acceptance skip(JsonNode update, long seq, String reason) {
        String raw = update.toString();
        sink.unreadable(UnreadableInbound.of(UpdateReader.CHANNEL, bot.account.id(), Long.toString(seq), reason, raw));
        return InboundSink.Acceptance.DUPLICATE;
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
