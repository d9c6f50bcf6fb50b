package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import io.javalin.Javalin;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A fake Discord on a free loopback port, speaking Discord's own protocols so a channel adapter runs its production
 * code against it: the HTTP API at {@link #apiBase()} with real rate-limit headers and 429s, and the Gateway over
 * WebSocket (JSON) with Hello, Identify, READY, heartbeats, sequence numbers, Resume and the close codes. Tests build
 * guilds, channels, DMs and threads, write as people, inject faults (dropped sockets, zombie connections, Reconnect,
 * Invalid Session, a late READY, 429s) and read what the bot did; every request is logged for the capability harness.
 */
public final class FakeDiscord implements PlatformCallLog, AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final DiscordWorld world;
    private final RateLimiter limiter = new RateLimiter();
    private final DiscordGateway gateway;
    private final DiscordRest rest;
    private final MessageRoutes messages;
    private final DiscordPeople people;
    private final Javalin http;
    private volatile String token;

    private FakeDiscord(String botName) {
        world = new DiscordWorld(botName);
        token = newToken();
        gateway = new DiscordGateway(lock, world, () -> token, () -> wsRoot() + "/resume", calls::add);
        rest = new DiscordRest(lock, world, limiter, calls::add, () -> token);
        messages = new MessageRoutes(world, gateway);
        people = new DiscordPeople(lock, world, messages);
        http = DiscordHttp.start(lock, world, rest, messages, gateway, calls::add, this::gatewayUrl);
        world.cdnBase = "http://127.0.0.1:" + http.port();
    }

    /** Starts a fake Discord whose bot user is called {@code botName}, with message content enabled in its flags. */
    public static FakeDiscord start(String botName) {
        return new FakeDiscord(botName);
    }

    // ---- what a client configures ----------------------------------------------------------

    /** {@code http://127.0.0.1:PORT/api/v10}: the channel's {@code api_base}. */
    public String apiBase() {
        return "http://127.0.0.1:" + http.port() + DiscordRest.API;
    }

    /** The Gateway URL GET /gateway/bot returns: {@code ws://127.0.0.1:PORT}. */
    public String gatewayUrl() {
        return wsRoot();
    }

    private String wsRoot() {
        return "ws://127.0.0.1:" + http.port();
    }

    public String botToken() {
        return token;
    }

    /** The token is reset: the old one gets 401 and close 4004 from now on. */
    public String resetToken() {
        token = newToken();
        return token;
    }

    public DiscordUser bot() {
        return world.bot;
    }

    public String applicationId() {
        return world.applicationId;
    }

    // ---- the world ----------------------------------------------------------------------------

    public DiscordUser user(String name) {
        return locked(() -> world.user(name, false));
    }

    public DiscordUser otherBot(String name) {
        return locked(() -> world.user(name, true));
    }

    public DiscordGuild guild(String name) {
        return locked(() -> {
            DiscordGuild g = new DiscordGuild(world.snowflake(), name);
            world.guilds.put(g.id(), g);
            return g;
        });
    }

    public DiscordChannel textChannel(DiscordGuild guild, String name) {
        return locked(() -> world.addChannel(DiscordChannel.GUILD_TEXT, guild.id(), name, null, null, null));
    }

    /** The DM between {@code person} and the bot; there is one per person. */
    public DiscordChannel dm(DiscordUser person) {
        return locked(() -> world.dmWith(person));
    }

    /** A person starts a public thread from message {@code messageId} (THREAD_CREATE is dispatched). */
    public DiscordChannel thread(DiscordChannel parent, String messageId, String name) {
        return locked(() -> {
            // a thread started from a message takes the message's id (channel, "Start Thread from Message")
            messages.startThread(world.channels.get(parent.id()), DiscordChannel.PUBLIC_THREAD, name, messageId);
            return world.channels.get(messageId).channel;
        });
    }

    /** The bot can no longer see {@code channel}: 50001 Missing Access. */
    public void denyAccess(DiscordChannel channel) {
        locked(() -> world.channels.get(channel.id()).accessible = false);
    }

    /** {@code person} does not take DMs from the bot: sends to their DM get 50007. */
    public void closeDms(DiscordUser person) {
        locked(() -> world.dmsClosedBy.add(person.id()));
    }

    /** The application's flags (GET /applications/@me), checked against privileged intents at Identify. */
    public void applicationFlags(int flags) {
        locked(() -> world.applicationFlags = flags);
    }

    /** Message content on (the Developer Portal switch, {@code GATEWAY_MESSAGE_CONTENT_LIMITED}) or off. */
    public void messageContentEnabled(boolean on) {
        applicationFlags(on ? GatewayIntents.FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED : 0);
    }

    // ---- what people write: each returns the new message's id --------------------------------

    public String send(DiscordChannel channel, DiscordUser from, String content) {
        return people.write(channel, from, content, null, false, null, null, null);
    }

    /** A reply; with {@code mentionAuthor} the replied-to author is mentioned, as Discord's reply ping does. */
    public String reply(
            DiscordChannel channel, DiscordUser from, String messageId, String content, boolean mentionAuthor) {
        return people.write(channel, from, content, messageId, mentionAuthor, null, null, null);
    }

    public String sendWithAttachment(
            DiscordChannel channel,
            DiscordUser from,
            String content,
            String filename,
            String contentType,
            byte[] bytes) {
        return people.write(channel, from, content, null, false, filename, contentType, bytes);
    }

    /** A person edits their message (MESSAGE_UPDATE). */
    public void edit(String messageId, String content) {
        people.edit(messageId, content);
    }

    /** A person deletes their message (MESSAGE_DELETE). */
    public void delete(String messageId) {
        people.delete(messageId);
    }

    // ---- Gateway settings and faults ----------------------------------------------------------

    /** The {@code heartbeat_interval} sent in Hello; Discord's is 41.25 s. */
    public void heartbeatInterval(Duration interval) {
        locked(() -> gateway.heartbeatInterval(interval));
    }

    /** Whether a connection that stops heartbeating is closed (on by default). */
    public void enforceHeartbeats(boolean on) {
        locked(() -> gateway.enforceHeartbeats(on));
    }

    /** The Identify rate: one per window ({@code max_concurrency} 1, "per 5 seconds" by default). */
    public void identifyWindow(Duration window) {
        locked(() -> gateway.identifyWindow(window));
    }

    /** How long a session can be resumed after its connection is gone. */
    public void sessionTimeout(Duration timeout) {
        locked(() -> gateway.sessionTimeout(timeout));
    }

    /** The next READY comes only after {@code delay} (a connection that stays "stuck" before READY). */
    public void delayNextReady(Duration delay) {
        locked(() -> gateway.delayNextReady(delay));
    }

    /** Drops every Gateway connection without a close frame; sessions stay resumable. */
    public void dropGatewayConnections() {
        locked(gateway::dropAll);
    }

    /** Open connections go silent: no Heartbeat ACK, no dispatch (kept for a Resume), as a zombied connection. */
    public void zombifyGatewayConnections() {
        locked(gateway::zombifyAll);
    }

    /** Sends Reconnect (op 7) on every connection; nothing more is dispatched there. */
    public void sendReconnect() {
        locked(gateway::reconnectAll);
    }

    /** Sends Invalid Session (op 9) with {@code d = resumable}; not resumable ends the sessions. */
    public void invalidateSessions(boolean resumable) {
        locked(() -> gateway.invalidateAll(resumable));
    }

    /** Asks every connection for an immediate heartbeat (op 1 from the server). */
    public void requestHeartbeat() {
        locked(gateway::requestHeartbeats);
    }

    /** Closes every Gateway connection with {@code code} (4000, 4009, 4004, ...). */
    public void closeGateway(int code, String reason) {
        locked(() -> gateway.closeAll(code, reason));
    }

    /** Sessions without a connection can no longer be resumed (Resume gets Invalid Session false). */
    public void expireSessions() {
        locked(gateway::expireSessions);
    }

    // ---- REST faults ------------------------------------------------------------------------------

    /** The next request to {@code route} (a {@link DiscordRoutes} name) gets a 429 of {@code scope}. */
    public void rateLimitNext(String route, RateLimitScope scope, Duration retryAfter) {
        locked(() -> limiter.inject(route, scope, retryAfter));
    }

    /** {@code route} allows {@code limit} requests per {@code window} per channel; one bucket name, one bucket. */
    public void routeLimit(String route, String bucketName, int limit, Duration window) {
        locked(() -> limiter.limit(route, bucketName, limit, window));
    }

    /** The global limit (50 requests per second by default, as Discord's). */
    public void globalRateLimit(int perSecond) {
        locked(() -> limiter.globalPerSecond(perSecond));
    }

    /** The next request to {@code route} takes effect, but its answer comes only after {@code delay}. */
    public void delayNext(String route, Duration delay) {
        locked(() -> rest.delayNext(route, delay));
    }

    /** The next request to {@code route} fails with this status and JSON error code, doing nothing. */
    public void failNext(String route, int status, int code, String message) {
        locked(() -> rest.failNext(route, status, code, message));
    }

    /** The most one uploaded file may hold (10 MiB by default); a larger one gets 413 with code 40005. */
    public void uploadLimit(long bytes) {
        locked(() -> messages.fileLimit = bytes);
    }

    /** The bytes of attachment {@code index} of message {@code messageId}, as uploaded. */
    public byte[] attachmentBytes(String messageId, int index) {
        return locked(() ->
                world.messages.get(messageId).attachments.get(index).bytes().clone());
    }

    /** How long {@code enforce_nonce} remembers a nonce (2 minutes by default: "the past few minutes"). */
    public void nonceWindow(Duration window) {
        locked(() -> messages.nonceWindow = window);
    }

    // ---- what happened -------------------------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    /** The JSON payloads of every request to {@code route}, parsed (uploads listed under {@code _files}). */
    public List<JsonNode> calls(String route) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : calls) {
            if (!c.method().equals(route)) continue;
            try {
                out.add(DiscordWorld.JSON.readTree(c.body()));
            } catch (IOException e) {
                throw new IllegalStateException("the call log holds JSON only", e);
            }
        }
        return out;
    }

    /** Every message in {@code channel}, oldest first, deleted ones marked. */
    public List<DiscordMessage> messages(DiscordChannel channel) {
        return locked(() -> world.channels.get(channel.id()).messages.values().stream()
                .map(world::snapshot)
                .toList());
    }

    /** The bot's messages in {@code channel} that are not deleted, oldest first. */
    public List<DiscordMessage> botMessages(DiscordChannel channel) {
        return messages(channel).stream()
                .filter(m -> m.authorId().equals(world.bot.id()) && !m.deleted())
                .toList();
    }

    public DiscordMessage message(String id) {
        return locked(() -> world.snapshot(world.messages.get(id)));
    }

    /** The channel ids of every Trigger Typing Indicator, in order. */
    public List<String> typing() {
        return locked(() -> List.copyOf(messages.typing));
    }

    /** Every payload apps sent to the Gateway, in order, tokens redacted. */
    public List<GatewayFrame> gatewayFrames() {
        return gateway.frames();
    }

    public List<GatewayConnection> gatewayConnections() {
        return locked(gateway::connections);
    }

    public int liveSessions() {
        return locked(gateway::liveSessions);
    }

    /** How many Identify payloads started a session (session_start_limit counts them). */
    public int identifies() {
        return locked(gateway::identifies);
    }

    @Override
    public void close() {
        locked(() -> {
            gateway.close();
            return null;
        });
        http.stop();
    }

    private <T> T locked(Supplier<T> action) {
        return DiscordHttp.locked(lock, action);
    }

    private void locked(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /** Discord tokens are three dot-separated parts, the first the base64 of the bot's id. */
    private String newToken() {
        byte[] secret = new byte[27];
        ThreadLocalRandom.current().nextBytes(secret);
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString(world.bot.id().getBytes(java.nio.charset.StandardCharsets.US_ASCII)) + ".G"
                + b64.encodeToString(
                                new byte[] {(byte) ThreadLocalRandom.current().nextInt(), 1, 2, 3})
                        .substring(0, 5)
                + "." + b64.encodeToString(secret);
    }

    @Override
    public String toString() {
        return "FakeDiscord[" + apiBase() + ", bot=" + world.bot.id() + "]";
    }
}
