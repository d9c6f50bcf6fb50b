package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A fake Matrix homeserver speaking the Client-Server API on a free loopback port, for one bot account: {@code /sync}
 * long polling with {@code since} tokens and filters, rooms (joined, invited, left), {@code m.direct} account data,
 * sends idempotent per device and transaction id within a retention window, redactions, relations (edits, reactions,
 * threads), typing, receipts, encrypted-room markers and the authenticated media repository. Tests build the world
 * (users, rooms, what users write) and read what the bot did, with edits resolved; every request is in the call log
 * ({@link #calls()}), named by endpoint ({@code sync}, {@code send}, {@code redact}, {@code typing}, {@code receipt},
 * {@code join}, {@code upload}, {@code download}...).
 */
public final class FakeMatrixHomeserver implements PlatformCallLog, AutoCloseable {
    public static final String DEFAULT_SERVER_NAME = "clawgate.test";

    private final Homeserver hs;
    private final ClientApi api;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Login botLogin;

    private FakeMatrixHomeserver(String serverName, String botLocalpart) throws IOException {
        this.hs = new Homeserver(serverName, botLocalpart);
        this.api = new ClientApi(hs);
        this.botLogin = hs.locked(() -> hs.newLogin("CLAWBOT01"));
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext("/", api::handle);
        http.start();
    }

    /** Starts a homeserver named {@value #DEFAULT_SERVER_NAME} whose bot is {@code @botLocalpart:clawgate.test}. */
    public static FakeMatrixHomeserver start(String botLocalpart) {
        return start(DEFAULT_SERVER_NAME, botLocalpart);
    }

    public static FakeMatrixHomeserver start(String serverName, String botLocalpart) {
        if (!botLocalpart.matches("[a-z0-9._=/-]+"))
            throw new IllegalArgumentException("not a user id localpart: " + botLocalpart);
        try {
            return new FakeMatrixHomeserver(serverName, botLocalpart);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake Matrix homeserver", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}: the channel's {@code homeserver} base URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    public String serverName() {
        return hs.serverName;
    }

    public MatrixUser bot() {
        return hs.bot;
    }

    /** The bot's first login: its {@code access_token}. */
    public Login botLogin() {
        return botLogin;
    }

    /** A new login of the bot: a new device, so a new transaction-id scope. */
    public Login login() {
        return hs.locked(() -> hs.newLogin("CLAWBOT" + String.format("%02d", hs.logins.size() + 1)));
    }

    /**
     * A refreshed token of the same device ("Refreshing access tokens"): transactions carry over, the old token stops
     * working.
     */
    public Login refresh(Login old) {
        return hs.locked(() -> {
            if (hs.logins.remove(old.accessToken()) == null)
                throw new IllegalArgumentException("not a live login: " + old);
            return hs.newLogin(old.deviceId());
        });
    }

    /** Logs a token out: requests with it get 401 {@code M_UNKNOWN_TOKEN}. */
    public void revoke(Login login) {
        hs.locked(() -> hs.logins.remove(login.accessToken()));
    }

    public MatrixUser user(String localpart) {
        return hs.locked(() -> hs.user(localpart));
    }

    /** What {@code user} does: send messages, react, edit, invite the bot... */
    public UserActions as(MatrixUser user) {
        if (user.userId().equals(hs.bot.userId())) throw new IllegalArgumentException("the bot acts through the API");
        return new UserActions(hs, user);
    }

    // ---- the world -----------------------------------------------------------------------------

    /** A private (invite-only) room created by {@code creator} with {@code members} joined; the bot is not in it. */
    public MatrixRoom createRoom(MatrixUser creator, String name, MatrixUser... members) {
        return hs.locked(() -> {
            Room r = hs.createRoom(creator, name, false);
            for (MatrixUser m : members) hs.setMembership(r, m.userId(), m.userId(), "join", null);
            return new MatrixRoom(r.id, name);
        });
    }

    /** A public room anyone may join, reachable by {@code #alias:server} too. */
    public MatrixRoom createPublicRoom(MatrixUser creator, String name, String aliasLocalpart) {
        return hs.locked(() -> {
            Room r = hs.createRoom(creator, name, true);
            String alias = "#" + aliasLocalpart + ":" + hs.serverName;
            hs.aliases.put(alias, r.id);
            hs.append(
                    r,
                    creator.userId(),
                    "m.room.canonical_alias",
                    "",
                    Homeserver.JSON.createObjectNode().put("alias", alias),
                    null,
                    null);
            return new MatrixRoom(r.id, name);
        });
    }

    /** A DM as clients make one: {@code user} creates a room and invites the bot with {@code is_direct}. */
    public MatrixRoom directRoom(MatrixUser user) {
        MatrixRoom room = createRoom(user, null);
        as(user).inviteBot(room, true);
        return room;
    }

    /** The bot joins as if it had joined earlier by itself (no API call is logged). */
    public void joinBot(MatrixRoom room) {
        hs.locked(() -> hs.setMembership(hs.rooms.get(room.roomId()), hs.bot.userId(), hs.bot.userId(), "join", null));
    }

    /** Takes away (or gives back) the bot's right to send in a room: sends get 403 {@code M_FORBIDDEN}. */
    public void forbidSending(MatrixRoom room, boolean forbidden) {
        hs.locked(() -> hs.rooms.get(room.roomId()).sendingForbidden = forbidden);
    }

    /** Sets a user's power level (100 creator, 50 moderator: may redact others' events). */
    public void setPowerLevel(MatrixRoom room, MatrixUser user, int level) {
        hs.locked(() -> {
            Room r = hs.rooms.get(room.roomId());
            StoredEvent current = r.state("m.room.power_levels", "");
            ObjectNode c = ((ObjectNode) current.content()).deepCopy();
            c.with("users").put(user.userId(), level);
            return hs.append(r, current.sender(), "m.room.power_levels", "", c, null, null);
        });
    }

    /** Sets the bot's global account data, e.g. {@code m.direct}: {@code {"@alice:server":["!room:server"]}}. */
    public void setBotAccountData(String type, String contentJson) {
        try {
            JsonNode c = Homeserver.JSON.readTree(contentJson);
            if (!c.isObject()) throw new IllegalArgumentException("account data content must be a JSON object");
            hs.locked(() -> {
                hs.putAccountData(type, (ObjectNode) c);
                return null;
            });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + contentJson, e);
        }
    }

    // ---- failures and time ---------------------------------------------------------------------

    /**
     * The next call of {@code endpoint} gets 429 {@code M_LIMIT_EXCEEDED} with {@code retry_after_ms} and
     * {@code Retry-After}.
     */
    public void rateLimitNext(String endpoint, Duration retryAfter) {
        api.failNext(endpoint, MatrixError.limitExceeded(retryAfter.toMillis()));
    }

    /** The next call of {@code endpoint} gets exactly this error, e.g. 403 {@code M_FORBIDDEN}. */
    public void failNext(String endpoint, int status, String errcode, String error) {
        api.failNext(endpoint, new MatrixError(status, errcode, error));
    }

    /**
     * The next call of {@code endpoint} is carried out, then answered only after {@code delay}: an ambiguous outcome.
     */
    public void stallNext(String endpoint, Duration delay) {
        api.stallNext(endpoint, delay);
    }

    /**
     * How long a transaction id is remembered (implementation-defined; Synapse keeps it about 30 minutes, the default).
     */
    public void transactionRetention(Duration retention) {
        hs.locked(() -> hs.transactionRetention = retention);
    }

    /** Moves the server's clock forward: transaction retention, typing timeouts and timestamps follow it. */
    public void advanceClock(Duration by) {
        hs.locked(() -> hs.clockOffsetMillis += by.toMillis());
    }

    public void maxUploadBytes(long bytes) {
        hs.locked(() -> hs.maxUploadBytes = bytes);
    }

    // ---- what the bot did ----------------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return api.calls();
    }

    /** The JSON bodies of the calls of one endpoint, in order (bodiless calls as {@code {}}). */
    public List<JsonNode> calls(String endpoint) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : api.calls()) {
            if (!c.method().equals(endpoint)) continue;
            try {
                out.add(c.body().isEmpty() ? Homeserver.JSON.createObjectNode() : Homeserver.JSON.readTree(c.body()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a " + endpoint + " call had a body that is not JSON", e);
            }
        }
        return out;
    }

    /** Empties the call log (a long run's memory stays flat). */
    public void clearCalls() {
        api.clearCalls();
    }

    /** Every non-state event the bot sent, in stream order, resolved (edits included as events of their own). */
    public List<SentEvent> sentByBot() {
        return hs.locked(() -> SentEvents.by(hs, hs.bot.userId(), null));
    }

    /** The bot's messages in a room as a reader sees them: edits applied, the edit events themselves left out. */
    public List<SentEvent> botMessages(MatrixRoom room) {
        return hs.locked(() -> SentEvents.by(hs, hs.bot.userId(), room.roomId()).stream()
                .filter(e -> e.type().equals("m.room.message") && !"m.replace".equals(e.relType()))
                .toList());
    }

    /** The bot's reactions in a room that still stand (not redacted). */
    public List<SentEvent> botReactions(MatrixRoom room) {
        return hs.locked(() -> SentEvents.by(hs, hs.bot.userId(), room.roomId()).stream()
                .filter(e -> e.type().equals("m.reaction") && !e.redacted())
                .toList());
    }

    /** Any event, resolved (edits applied), e.g. to see that a user's message was redacted. */
    public SentEvent event(String eventId) {
        return hs.locked(() -> {
            StoredEvent e = hs.eventsById.get(eventId);
            if (e == null) throw new IllegalArgumentException("no event " + eventId);
            return SentEvents.resolve(hs.rooms.get(e.roomId()), e);
        });
    }

    public List<TypingNotice> typingNotices() {
        return hs.locked(() -> List.copyOf(hs.typingLog));
    }

    public List<ReadReceipt> receipts() {
        return hs.locked(() -> List.copyOf(hs.receiptLog));
    }

    /** {@code join}, {@code invite}, {@code leave}, {@code ban}, or null. */
    public String membership(MatrixRoom room, MatrixUser user) {
        return hs.locked(() -> hs.rooms.get(room.roomId()).membership(user.userId()));
    }

    /** The bot's global account data of {@code type}, or null. */
    public JsonNode botAccountData(String type) {
        return hs.locked(() -> {
            Homeserver.AccountData d = hs.accountData.get(type);
            return d == null ? null : d.content().deepCopy();
        });
    }

    /** The bytes behind an {@code mxc://server/id} URI, or null. */
    public byte[] media(String mxcUri) {
        String prefix = "mxc://" + hs.serverName + "/";
        if (!mxcUri.startsWith(prefix)) return null;
        return hs.locked(() -> {
            Homeserver.Media m = hs.media.get(mxcUri.substring(prefix.length()));
            return m == null ? null : m.bytes().clone();
        });
    }

    @Override
    public void close() {
        hs.locked(() -> {
            hs.closed = true;
            hs.changed.signalAll();
            return null;
        });
        http.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "FakeMatrixHomeserver[" + baseUrl() + ", bot=" + hs.bot.userId() + "]";
    }
}
