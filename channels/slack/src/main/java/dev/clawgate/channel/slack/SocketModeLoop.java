package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Socket Mode (SPEC CH-4, CH-0, IN-3): {@code apps.connections.open} with the app-level token gives a single-use
 * WebSocket URL; Slack greets with {@code hello} and sends {@code events_api} envelopes, each acknowledged by sending
 * its {@code envelope_id} back, only after the message was committed to the inbox (an envelope not acked is sent again
 * by Slack, and dedupes in the inbox, IN-1). A {@code disconnect} (Slack's refresh, or a warning before it closes)
 * opens a new connection at once; a dropped connection or a failed open reconnects with backoff from 1 s to 30 s. One
 * thread per app, restartable: {@link #stop} ends it, and the supervisor starts a new one.
 */
final class SocketModeLoop {
    private static final Logger log = LoggerFactory.getLogger(SocketModeLoop.class);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final SlackBot bot;
    private final SlackApi appApi;
    private final EventReader reader;
    private final InboundSink sink;
    private final HttpClient http;
    private final Duration firstBackoff;
    private volatile boolean running = true;
    private volatile Thread thread;
    private volatile WebSocket current;
    private volatile ChannelHealth health = ChannelHealth.down("connecting");

    SocketModeLoop(
            SlackBot bot,
            SlackApi appApi,
            EventReader reader,
            InboundSink sink,
            HttpClient http,
            Duration firstBackoff) {
        this.bot = bot;
        this.appApi = appApi;
        this.reader = reader;
        this.sink = sink;
        this.http = http;
        this.firstBackoff = firstBackoff;
    }

    void start() {
        thread = Thread.ofVirtual().name("slack-socket-" + bot.account.id()).start(this::run);
    }

    void stop() {
        running = false;
        WebSocket ws = current;
        if (ws != null) ws.abort();
        Thread t = thread;
        if (t != null) t.interrupt();
    }

    ChannelHealth health() {
        return health;
    }

    private void run() {
        Duration backoff = firstBackoff;
        while (running) {
            Connection c = new Connection();
            try {
                if (!bot.identified()) bot.identify();
                JsonNode opened = appApi.call("apps.connections.open", SlackApi.JSON.createObjectNode());
                String url = opened.path("url").asText(null);
                if (url == null) throw new IOException("apps.connections.open gave no url");
                WebSocket ws = http.newWebSocketBuilder()
                        .connectTimeout(SlackApi.CONNECT_TIMEOUT)
                        .buildAsync(URI.create(url), c)
                        .get(SlackApi.CONNECT_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
                current = ws;
                c.socket = ws;
                ws.request(1);
                Thread worker = Thread.ofVirtual()
                        .name("slack-socket-events-" + bot.account.id())
                        .start(() -> c.work());
                String why = c.ended.get();
                // the envelope in hand is finished (its record or its ack must not be cut off); those after it stay
                // unacked
                worker.join(Duration.ofSeconds(30));
                ws.abort();
                if (!running) return;
                if (c.helloSeen && c.disconnectAsked) {
                    // Slack asked for a new connection (refresh_requested, warning): open one at once
                    log.info("slack [{}]: Socket Mode connection refreshed ({})", bot.account.id(), why);
                    backoff = firstBackoff;
                    continue;
                }
                if (c.helloSeen) backoff = firstBackoff;
                health = ChannelHealth.down("Socket Mode connection closed: " + why);
                log.warn(
                        "slack [{}]: Socket Mode connection closed ({}); reconnecting in {} ms",
                        bot.account.id(),
                        why,
                        backoff.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (SlackApiException e) {
                String why = appApi.redact(bot.api.redact(e.getMessage()));
                health = ChannelHealth.down("apps.connections.open failed: " + why);
                log.error(
                        "slack [{}]: cannot open a Socket Mode connection ({}); retrying in {} ms{}",
                        bot.account.id(),
                        why,
                        backoff.toMillis(),
                        e.authRefused() ? "; check app_token (xapp-..., with connections:write)" : "");
            } catch (Exception e) {
                health = ChannelHealth.down("Socket Mode connection failed: " + e);
                log.warn(
                        "slack [{}]: Socket Mode connection failed ({}); retrying in {} ms",
                        bot.account.id(),
                        appApi.redact(e.toString()),
                        backoff.toMillis());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /**
     * One WebSocket: frames are joined into messages, envelopes handled in order on a worker, acks sent one at a time.
     */
    private final class Connection implements WebSocket.Listener {
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final LinkedBlockingQueue<JsonNode> envelopes = new LinkedBlockingQueue<>();
        final ReentrantLock sending = new ReentrantLock();
        final StringBuilder frame = new StringBuilder();
        volatile WebSocket socket;
        volatile boolean helloSeen;
        volatile boolean disconnectAsked;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            frame.append(data);
            if (last) {
                String text = frame.toString();
                frame.setLength(0);
                message(text);
            }
            ws.request(1);
            return null;
        }

        private void message(String text) {
            JsonNode n;
            try {
                n = SlackApi.JSON.readTree(text);
            } catch (IOException e) {
                log.warn("slack [{}]: a Socket Mode frame that is not JSON was skipped", bot.account.id());
                return;
            }
            switch (n.path("type").asText("")) {
                case "hello" -> {
                    helloSeen = true;
                    health = ChannelHealth.UP;
                    log.info("slack [{}]: Socket Mode connected as {}", bot.account.id(), bot.name());
                }
                case "disconnect" -> {
                    disconnectAsked = true;
                    ended.complete("disconnect: " + n.path("reason").asText("unknown"));
                }
                default -> {
                    if (n.hasNonNull("envelope_id")) envelopes.add(n);
                }
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            ended.complete("closed " + status + (reason == null || reason.isEmpty() ? "" : " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            ended.complete("error: " + error);
        }

        /** Handles envelopes in arrival order until the connection ends. */
        void work() {
            try {
                while (!ended.isDone()) {
                    JsonNode envelope = envelopes.poll(200, TimeUnit.MILLISECONDS);
                    if (envelope != null && !handle(envelope)) return;
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * SPEC IN-3 after_receive_record: the envelope is acked once its message is committed (or it was nothing to
         * record); a store failure leaves it unacked, Slack sends it again, and this connection is dropped so the
         * redelivery comes on a fresh one. False when the connection should end.
         */
        private boolean handle(JsonNode envelope) {
            String id = envelope.path("envelope_id").asText();
            if (!"events_api".equals(envelope.path("type").asText())) return ack(id);
            JsonNode payload = envelope.path("payload");
            String ref = payload.path("event_id").asText(id);
            try {
                switch (reader.read(payload)) {
                    case EventReader.Reading.Ignored ignored -> {}
                    case EventReader.Reading.Unreadable u ->
                        sink.unreadable(UnreadableInbound.of(
                                EventReader.CHANNEL, bot.account.id(), ref, u.reason(), payload.toString()));
                    case EventReader.Reading.Message m -> {
                        try {
                            sink.accept(m.message());
                        } catch (StoreException | IllegalStateException retry) {
                            throw retry;
                        } catch (RuntimeException refused) {
                            sink.unreadable(UnreadableInbound.of(
                                    EventReader.CHANNEL,
                                    bot.account.id(),
                                    ref,
                                    "the gateway could not take it: " + refused,
                                    payload.toString()));
                        }
                    }
                }
            } catch (StoreException | IllegalStateException e) {
                log.warn(
                        "slack [{}]: event {} not recorded, left unacknowledged for Slack to send again: {}",
                        bot.account.id(),
                        ref,
                        e.getMessage());
                ended.complete("store failure");
                return false;
            }
            return ack(id);
        }

        private boolean ack(String envelopeId) {
            String ack = SlackApi.JSON
                    .createObjectNode()
                    .put("envelope_id", envelopeId)
                    .toString();
            sending.lock();
            try {
                socket.sendText(ack, true).get(10, TimeUnit.SECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                // the ack did not go out: Slack sends the envelope again, and the inbox dedupes it (IN-1)
                ended.complete("ack failed: " + e);
                return false;
            } finally {
                sending.unlock();
            }
        }
    }
}
