package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import io.javalin.Javalin;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fake Slack on a free loopback port, speaking Slack's own protocols so a channel adapter runs its production code
 * against it: the Web API at {@link #apiBase()} ({@code /api/<method>}), the external file upload URLs and private file
 * URLs, the Events API pushed to a Request URL (signed, retried), and Socket Mode over a WebSocket. Tests build a
 * workspace (people, channels, DMs, threads), write as people, inject faults (429s, late answers, errors, dropped
 * sockets) and read what the bot did; every call the fake receives is logged for the capability harness.
 */
public final class FakeSlack implements PlatformCallLog, AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final List<ObjectNode> published = new CopyOnWriteArrayList<>();
    private final SlackCredentials secrets;
    private final SlackWorld world;
    private final SlackEvents events;
    private final SlackFiles files;
    private final SlackAssistant assistant;
    private final SlackPeople people;
    private final SocketModeServer socket;
    private final EventsApiPusher pusher;
    private final SlackWebApi api;
    private final Javalin http;
    private volatile boolean socketMode;
    private volatile boolean mentionFirst;

    private FakeSlack(String botName) {
        world = new SlackWorld(botName);
        secrets = SlackCredentials.fresh(world.appId);
        events = new SlackEvents(world, secrets.verificationToken());
        SlackMethods methods = new SlackMethods(world, events);
        files = new SlackFiles(world, methods, events);
        assistant = new SlackAssistant(world, methods);
        socket = new SocketModeServer(world.appId, calls::add);
        pusher = new EventsApiPusher(new SlackSignature(secrets.signingSecret()), executor, calls::add);
        api = new SlackWebApi(
                lock,
                methods,
                files,
                assistant,
                socket,
                this::publish,
                calls::add,
                secrets.botToken(),
                secrets.appToken());
        http = SlackHttp.start(api, files, socket, lock, calls::add, secrets.botToken(), this::apiBase, this::wsBase);
        world.baseUrl(root());
        people = new SlackPeople(lock, world, files, events, this::publish);
    }

    /** Starts a fake workspace whose bot user is called {@code botName}; tokens and signing secret are fresh. */
    public static FakeSlack start(String botName) {
        return new FakeSlack(botName);
    }

    // ---- what a client configures ----------------------------------------------------------

    /** {@code http://127.0.0.1:PORT/api}: the channel's {@code api_base}. */
    public String apiBase() {
        return root() + "/api";
    }

    public String botToken() {
        return secrets.botToken();
    }

    /** The app-level token ({@code xapp-...}) that opens Socket Mode connections. */
    public String appToken() {
        return secrets.appToken();
    }

    public String signingSecret() {
        return secrets.signingSecret();
    }

    public SlackUser bot() {
        return world.bot;
    }

    public String teamId() {
        return world.teamId;
    }

    private String root() {
        return "http://127.0.0.1:" + http.port();
    }

    private String wsBase() {
        return "ws://127.0.0.1:" + http.port();
    }

    // ---- the workspace ---------------------------------------------------------------------

    public SlackUser user(String name) {
        return locked(() -> world.person(name));
    }

    /** Another app's bot user: its messages carry a {@code bot_id}. */
    public SlackUser otherBot(String name) {
        return locked(() -> world.otherBot(name));
    }

    /** A public channel the bot is in. */
    public SlackChannel channel(String name) {
        return locked(() -> world.conversation("C", name, "channel", null, true));
    }

    /** A public channel the bot is not in: no events from it, posts answer {@code not_in_channel}. */
    public SlackChannel channelWithoutBot(String name) {
        return locked(() -> world.conversation("C", name, "channel", null, false));
    }

    /** A private channel the bot is in ({@code channel_type} {@code group}). */
    public SlackChannel privateChannel(String name) {
        return locked(() -> world.conversation("G", name, "group", null, true));
    }

    /** The DM between {@code person} and the bot ({@code channel_type} {@code im}); there is one per person. */
    public SlackChannel dm(SlackUser person) {
        return locked(() -> world.conversations.values().stream()
                .map(c -> c.channel)
                .filter(c -> c.isIm() && c.peer().id().equals(person.id()))
                .findFirst()
                .orElseGet(() -> world.conversation("D", person.name(), "im", person, true)));
    }

    /** The channel is archived: posts answer {@code is_archived}. */
    public void archive(SlackChannel channel) {
        locked(() -> world.conversations.get(channel.id()).archived = true);
    }

    // ---- what people do: each returns the message's ts ----------------------------------

    public String post(SlackChannel channel, SlackUser from, String text) {
        return people.say(channel, from, text, null, null);
    }

    /** A reply in the thread of {@code threadTs} (a reply's ts names its root's thread, as in Slack). */
    public String reply(SlackChannel channel, String threadTs, SlackUser from, String text) {
        return people.say(channel, from, text, threadTs, null);
    }

    /** A person shares a file with an optional text ({@code file_share}, {@code files[]} with private URLs). */
    public String postFile(
            SlackChannel channel, SlackUser from, String name, String mimetype, byte[] bytes, String text) {
        return people.say(
                channel, from, text == null ? "" : text, null, new SlackPeople.FileShare(name, mimetype, bytes));
    }

    /** A person edits their message: a hidden {@code message_changed} event, which must not start a turn. */
    public void edit(SlackChannel channel, String ts, String newText) {
        people.edit(channel, ts, newText);
    }

    /** A person deletes their message: a hidden {@code message_deleted} event. */
    public void delete(SlackChannel channel, String ts) {
        people.delete(channel, ts);
    }

    // ---- how events reach the app ----------------------------------------------------------

    /** Events go to this Request URL over HTTP (the Events API); events published before are sent now. */
    public void deliverEventsTo(URI requestUrl) {
        socketMode = false;
        pusher.target(requestUrl);
    }

    /** Events go over Socket Mode connections instead; they wait for one when none is open. */
    public void useSocketMode() {
        socketMode = true;
    }

    /** Slack's {@code url_verification} handshake against the Request URL; true when the app echoed the challenge. */
    public boolean verifyRequestUrl() throws IOException, InterruptedException {
        return pusher.verifyUrl(secrets.verificationToken());
    }

    /** Publish the {@code app_mention} of a mention before its {@code message} (Slack gives no order). */
    public void mentionBeforeMessage(boolean first) {
        this.mentionFirst = first;
    }

    /** How long Slack waits for a 2xx (HTTP) or an ack (Socket Mode) before retrying; 3 s like Slack by default. */
    public void eventAckTimeout(Duration timeout) {
        pusher.ackTimeout(timeout);
        socket.ackTimeout(timeout);
    }

    /** The waits before each HTTP retry (at most 3): 0, 600 ms, 3 s by default — Slack's 0, 1 min, 5 min sped up. */
    public void eventRetryDelays(Duration... delays) {
        pusher.retryDelays(List.of(delays));
    }

    /** Sends event {@code eventId} again as a retry after a lost ack: HTTP with retry headers, or an envelope. */
    public void redeliver(String eventId) throws IOException, InterruptedException {
        ObjectNode cb = published.stream()
                .filter(e -> eventId.equals(e.path("event_id").asText()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no event " + eventId));
        if (socketMode) {
            socket.deliver(cb);
            return;
        }
        byte[] body = cb.toString().getBytes(StandardCharsets.UTF_8);
        long ts = System.currentTimeMillis() / 1000;
        pusher.post(body, ts, new SlackSignature(secrets.signingSecret()).sign(ts, body), 1, "http_timeout");
    }

    /**
     * One POST of raw bytes to the Request URL with the given timestamp and signature header (null: none), no retry:
     * for proving that a bad signature or a stale timestamp is refused.
     */
    public EventAnswer pushOnce(byte[] body, long timestamp, String signature)
            throws IOException, InterruptedException {
        EventsApiPusher.Answer a = pusher.post(body, timestamp, signature, 0, null);
        return new EventAnswer(a.status(), a.body());
    }

    /** The app's answer to {@link #pushOnce}. */
    public record EventAnswer(int status, String body) {}

    /** Sends {@code disconnect} with {@code reason} ({@code warning}, {@code refresh_requested}), then closes. */
    public void disconnectSockets(String reason, Duration closeAfter) {
        socket.disconnectAll(reason, closeAfter);
    }

    /** Drops every Socket Mode connection without a close frame; unacked envelopes are sent again later. */
    public void dropSockets() {
        socket.dropAll();
    }

    private void publish(List<ObjectNode> out) {
        List<ObjectNode> ordered = new ArrayList<>(out);
        if (mentionFirst) ordered.sort((a, b) -> rank(a) - rank(b));
        for (ObjectNode cb : ordered) {
            published.add(cb);
            if (socketMode) socket.deliver(cb);
            else pusher.push(cb);
        }
    }

    private static int rank(ObjectNode cb) {
        return "app_mention".equals(cb.path("event").path("type").asText()) ? 0 : 1;
    }

    // ---- faults ------------------------------------------------------------------------------

    /** The next call of {@code method} answers 429 with {@code Retry-After: seconds} and does nothing. */
    public void rateLimitNext(String method, int retryAfterSeconds) {
        api.rateLimitNext(method, retryAfterSeconds);
    }

    /** At most {@code permits} calls of {@code method} per {@code window} (posts: per channel); more get 429. */
    public void rateLimit(String method, int permits, Duration window) {
        api.limit(method, permits, window);
    }

    /** The next call of {@code method} takes effect, but its answer comes only after {@code delay}. */
    public void delayNext(String method, Duration delay) {
        api.delayNext(method, delay);
    }

    /** The next call of {@code method} answers {@code {"ok":false,"error":error}} and does nothing. */
    public void failNext(String method, String error) {
        api.failNext(method, error);
    }

    /** The bot token is revoked: calls answer {@code token_revoked}. */
    public void revokeBotToken() {
        api.tokenState(SlackWebApi.TokenState.REVOKED);
    }

    /** The bot user is deactivated: calls answer {@code account_inactive}. */
    public void deactivateBot() {
        api.tokenState(SlackWebApi.TokenState.INACTIVE);
    }

    // ---- what happened -------------------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    /** The arguments of every call of {@code method}, parsed. */
    public List<JsonNode> calls(String method) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : calls) {
            if (!c.method().equals(method)) continue;
            try {
                out.add(SlackWorld.JSON.readTree(c.body()));
            } catch (IOException e) {
                throw new IllegalStateException("the call log holds JSON only", e);
            }
        }
        return out;
    }

    /** Every message in {@code channel} (thread replies included), oldest first, deleted ones marked. */
    public List<SlackMessage> messages(SlackChannel channel) {
        return locked(() -> world.conversations.get(channel.id()).posts.values().stream()
                .map(world::snapshot)
                .toList());
    }

    /** The bot's messages in {@code channel} that are not deleted, oldest first. */
    public List<SlackMessage> botMessages(SlackChannel channel) {
        return messages(channel).stream()
                .filter(m -> world.bot.id().equals(m.user()) && !m.deleted())
                .toList();
    }

    public SlackMessage message(SlackChannel channel, String ts) {
        return locked(
                () -> world.snapshot(world.conversations.get(channel.id()).posts.get(ts)));
    }

    /**
     * The status the app's {@code assistant.threads.setStatus} shows in the thread of {@code threadTs} now, or null.
     */
    public String threadStatus(SlackChannel channel, String threadTs) {
        return locked(() -> assistant.statusOf(channel.id(), threadTs));
    }

    /** The bytes of file {@code fileId} ({@code F...}) as Slack holds them, or null before they were uploaded. */
    public byte[] fileBytes(String fileId) {
        return locked(() -> world.files.containsKey(fileId) ? world.files.get(fileId).bytes : null);
    }

    /** Every event published, in order, as sent (the {@code event_callback} JSON). */
    public List<JsonNode> events() {
        return List.copyOf(published);
    }

    /** Every HTTP attempt of the Events API pusher, in order. */
    public List<EventDelivery> deliveries() {
        return pusher.deliveries();
    }

    /** Every envelope sent over Socket Mode, retries included. */
    public List<SocketEnvelope> envelopes() {
        return socket.sent();
    }

    /** Envelopes sent and not acknowledged yet, plus those waiting for a connection. */
    public int unacknowledgedEnvelopes() {
        return socket.unacknowledged();
    }

    public int openSockets() {
        return socket.openConnections();
    }

    @Override
    public void close() {
        pusher.close();
        socket.close();
        http.stop();
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T locked(java.util.function.Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FakeSlack[" + apiBase() + ", bot=" + world.bot.id() + "]";
    }
}
