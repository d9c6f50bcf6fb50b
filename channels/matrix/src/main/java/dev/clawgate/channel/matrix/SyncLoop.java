package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.UnreadableInbound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /sync} long polling for the bot (SPEC CH-6, IN-3, IN-4, CH-0): a filter so only what the gateway reads comes
 * down; each batch's invites accepted per {@code auto_join}, its timeline events handed to the sink, and only then its
 * {@code next_batch} stored ({@link SyncToken}), so a crash replays the batch and the inbox drops what it already holds
 * (dedupe by event id). The first sync of a new installation reads no history; a room joined since the last sync is
 * read from the bot's own invite or join on; a limited timeline's gap is read back with {@code /messages}. Failures
 * back off exponentially (a 429 waits at least its {@code retry_after_ms}) and show as unhealthy.
 */
final class SyncLoop {
    private static final Logger log = LoggerFactory.getLogger(SyncLoop.class);
    static final Duration POLL = Duration.ofSeconds(30);
    static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
    static final Duration STOP_WAIT = Duration.ofSeconds(5);
    static final int TIMELINE_LIMIT = 100;
    /** A gap left by a limited timeline is read back at most this many pages (of {@link #TIMELINE_LIMIT}). */
    static final int MAX_GAP_PAGES = 50;

    private final MatrixBot bot;
    private final EventReader reader;
    private final Rooms rooms;
    private final InboundSink sink;
    private final SyncToken token;
    private final EncryptionNotice encryption;
    private final Duration poll;
    private volatile boolean running = true;
    private volatile ChannelHealth health = ChannelHealth.down("starting");
    private String filterId;
    private Thread thread;

    SyncLoop(
            MatrixBot bot,
            EventReader reader,
            Rooms rooms,
            InboundSink sink,
            SyncToken token,
            EncryptionNotice encryption,
            Duration poll) {
        this.bot = bot;
        this.reader = reader;
        this.rooms = rooms;
        this.sink = sink;
        this.token = token;
        this.encryption = encryption;
        this.poll = poll;
    }

    void start() {
        thread = Thread.ofVirtual().name("matrix-sync-" + bot.account.id()).start(this::supervise);
    }

    /** Stops polling and waits (a bounded while) for the loop to end; what it had not stored comes again. */
    void stop() {
        running = false;
        Thread t = thread;
        if (t == null || t == Thread.currentThread()) return;
        t.interrupt();
        try {
            if (!t.join(STOP_WAIT))
                log.warn("matrix [{}]: the sync loop did not end within {} s", bot.account.id(), STOP_WAIT.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    ChannelHealth health() {
        return health;
    }

    /**
     * The filter ("Filtering"): timeline messages, encrypted events and memberships; encryption state; no presence or
     * typing.
     */
    static ObjectNode filter() {
        ObjectNode f = MatrixApi.JSON.createObjectNode();
        ObjectNode room = f.putObject("room");
        ObjectNode timeline = room.putObject("timeline").put("limit", TIMELINE_LIMIT);
        timeline.putArray("types")
                .add("m.room.message")
                .add("m.room.encrypted")
                .add("m.room.member")
                .add("m.room.encryption");
        room.putObject("state").putArray("types").add("m.room.encryption");
        room.putObject("ephemeral").putArray("not_types").add("*");
        room.putObject("account_data").putArray("not_types").add("*");
        f.putObject("presence").putArray("not_types").add("*");
        f.putObject("account_data").putArray("types").add("m.direct");
        return f;
    }

    private void supervise() {
        Duration backoff = FIRST_BACKOFF;
        while (running) {
            try {
                if (!bot.identified()) bot.identify();
                if (filterId == null) {
                    filterId = bot.api
                            .post(
                                    "/_matrix/client/v3/user/" + MatrixApi.seg(bot.userId()) + "/filter",
                                    filter(),
                                    dev.clawgate.core.run.CancelToken.none())
                            .path("filter_id")
                            .asText();
                }
                syncOnce();
                if (!health.healthy()) log.info("matrix [{}]: syncing", bot.account.id());
                health = ChannelHealth.UP;
                backoff = FIRST_BACKOFF;
            } catch (MatrixApiException | RuntimeException e) {
                if (!running) return;
                String why = bot.api.redact(e.getMessage());
                Duration wait = backoff;
                if (e instanceof MatrixApiException m
                        && m.rateLimited()
                        && m.retryAfter() != null
                        && m.retryAfter().compareTo(wait) > 0) {
                    wait = m.retryAfter(); // never sooner than the homeserver asks
                }
                health = ChannelHealth.down("sync failed, retrying in " + wait.toMillis() + " ms: " + why);
                if (e instanceof MatrixApiException m && m.authRefused()) {
                    log.error(
                            "matrix [{}]: the homeserver refuses the access token ({}); "
                                    + "set channels.matrix.access_token to a "
                                    + "valid token of the bot. Retrying in {} ms",
                            bot.account.id(),
                            m.errcode(),
                            wait.toMillis());
                } else {
                    log.warn("matrix [{}]: sync failed, retrying in {} ms: {}", bot.account.id(), wait.toMillis(), why);
                }
                if (!sleep(wait)) return;
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    private void syncOnce() throws MatrixApiException {
        String since = token.read(bot.userId());
        Map<String, String> q = new LinkedHashMap<>();
        q.put("filter", filterId);
        q.put("since", since);
        long timeout = since != null && health.healthy() ? poll.toMillis() : 0;
        q.put("timeout", Long.toString(timeout));
        JsonNode r = bot.api.get(
                "/_matrix/client/v3/sync" + MatrixApi.query(q),
                Duration.ofMillis(timeout).plusSeconds(30),
                dev.clawgate.core.run.CancelToken.none());
        if (!running) return;
        batch(r, since);
        String next = r.path("next_batch").asText(null);
        if (next == null)
            throw new MatrixApiException(
                    "sync answered no next_batch", MatrixApiException.Reach.ANSWERED, 200, null, null, null);
        if (running) token.write(bot.userId(), next); // only now: every event of the batch is in the inbox
    }

    private void batch(JsonNode r, String since) throws MatrixApiException {
        boolean first = since == null;
        for (JsonNode d : r.path("account_data").path("events")) {
            if ("m.direct".equals(d.path("type").asText())) rooms.direct(d.path("content"));
        }
        for (var e : r.path("rooms").path("invite").properties()) invited(e.getKey(), e.getValue());
        for (var e : r.path("rooms").path("leave").properties()) rooms.left(e.getKey());
        for (var e : r.path("rooms").path("join").properties()) {
            String roomId = e.getKey();
            JsonNode room = e.getValue();
            rooms.summary(roomId, room.path("summary"));
            for (JsonNode s : room.path("state").path("events")) rooms.see(roomId, s);
            JsonNode events = room.path("timeline").path("events");
            // a room joined in this batch is read from the bot's own invite or join on; one already known, all of it
            boolean live = !first && (rooms.known(roomId) || !joinedIn(events));
            if (live && room.path("timeline").path("limited").asBoolean(false)) {
                for (JsonNode ev :
                        gap(roomId, room.path("timeline").path("prev_batch").asText(null), since)) take(roomId, ev);
            }
            for (JsonNode ev : events) {
                rooms.see(roomId, ev);
                boolean mine = "m.room.member".equals(ev.path("type").asText())
                        && bot.userId().equals(ev.path("state_key").asText());
                if (mine && !first) live = true;
                if (live) take(roomId, ev);
            }
            rooms.know(roomId); // only now: a batch that failed midway reads this room the same way again
        }
    }

    /**
     * A limited timeline left out what came between {@code since} and its first event ("Syncing"): those events, oldest
     * first, paged back with {@code /messages?dir=b&from=prev_batch&to=since}, so no message is skipped (SPEC IN-4).
     */
    private List<JsonNode> gap(String roomId, String prevBatch, String since) throws MatrixApiException {
        List<JsonNode> out = new ArrayList<>();
        if (prevBatch == null) return out;
        ObjectNode filter = MatrixApi.JSON.createObjectNode();
        filter.putArray("types").add("m.room.message").add("m.room.encrypted");
        String from = prevBatch;
        for (int page = 0; page < MAX_GAP_PAGES && from != null; page++) {
            Map<String, String> q = new LinkedHashMap<>();
            q.put("dir", "b");
            q.put("from", from);
            q.put("to", since);
            q.put("limit", Integer.toString(TIMELINE_LIMIT));
            q.put("filter", filter.toString());
            JsonNode r = bot.api.get(
                    "/_matrix/client/v3/rooms/" + MatrixApi.seg(roomId) + "/messages" + MatrixApi.query(q),
                    bot.account.callTimeout(),
                    dev.clawgate.core.run.CancelToken.none());
            r.path("chunk").forEach(out::add);
            from = r.path("chunk").isEmpty() ? null : r.path("end").asText(null);
            if (page == MAX_GAP_PAGES - 1 && from != null) {
                log.warn(
                        "matrix [{}]: more than {} events missed in {}; the oldest are not read",
                        bot.account.id(),
                        MAX_GAP_PAGES * TIMELINE_LIMIT,
                        roomId);
            }
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /**
     * The bot's own membership is in this timeline: the room was joined in this batch, and only what follows it is new.
     */
    private boolean joinedIn(JsonNode events) {
        for (JsonNode ev : events) {
            if ("m.room.member".equals(ev.path("type").asText())
                    && bot.userId().equals(ev.path("state_key").asText())) return true;
        }
        return false;
    }

    private void invited(String roomId, JsonNode room) throws MatrixApiException {
        String inviter = null;
        boolean direct = false;
        for (JsonNode s : room.path("invite_state").path("events")) {
            if ("m.room.member".equals(s.path("type").asText())
                    && bot.userId().equals(s.path("state_key").asText())) {
                inviter = s.path("sender").asText(null);
                direct = s.path("content").path("is_direct").asBoolean(false);
            }
            if ("m.room.encryption".equals(s.path("type").asText())) rooms.see(roomId, s);
        }
        if (!bot.account.accepts(inviter, roomId)) {
            log.info(
                    "matrix [{}]: invite to {} from {} not accepted (auto_join = {})",
                    bot.account.id(),
                    roomId,
                    inviter,
                    bot.account.autoJoin().name().toLowerCase(java.util.Locale.ROOT));
            return;
        }
        if (direct) rooms.invitedDirect(roomId);
        try {
            bot.api.post(
                    "/_matrix/client/v3/rooms/" + MatrixApi.seg(roomId) + "/join",
                    MatrixApi.JSON.createObjectNode(),
                    dev.clawgate.core.run.CancelToken.none());
            log.info("matrix [{}]: joined {} on {}'s invite", bot.account.id(), roomId, inviter);
        } catch (MatrixApiException e) {
            if (e.reach() == MatrixApiException.Reach.ANSWERED && e.status() / 100 == 4 && !e.rateLimited()) {
                log.warn("matrix [{}]: could not join {}: {}", bot.account.id(), roomId, e.getMessage());
                return;
            }
            throw e; // transient: the batch is synced again, the invite with it
        }
    }

    /**
     * One timeline event to the sink (SPEC IN-4, CH-0): a message is recorded; one that cannot be read is kept as
     * failed; an encrypted one is kept as failed and its room told once that encryption is not supported. A store
     * failure propagates: the token is not stored and the batch comes again.
     */
    private void take(String roomId, JsonNode event) {
        switch (reader.read(roomId, event)) {
            case EventReader.Reading.Ignored ignored -> {}
            case EventReader.Reading.Unreadable u -> unreadable(event, u.reason());
            case EventReader.Reading.Encrypted enc -> {
                log.warn(
                        "matrix [{}]: encrypted event {} in {} not read: end-to-end encryption is not supported",
                        bot.account.id(),
                        enc.eventId(),
                        roomId);
                unreadable(event, "end-to-end encrypted: not supported");
                encryption.tell(roomId);
            }
            case EventReader.Reading.Message m -> {
                try {
                    sink.accept(m.message());
                } catch (StoreException | IllegalStateException retry) {
                    throw retry;
                } catch (RuntimeException refused) {
                    unreadable(event, "the gateway could not take it: " + refused);
                }
            }
        }
    }

    private void unreadable(JsonNode event, String reason) {
        String ref = event.path("event_id")
                .asText("no-id-" + Integer.toHexString(event.toString().hashCode()));
        sink.unreadable(UnreadableInbound.of(EventReader.CHANNEL, bot.account.id(), ref, reason, event.toString()));
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
