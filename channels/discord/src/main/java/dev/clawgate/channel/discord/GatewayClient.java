package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.socket.GatewaySocket;
import dev.clawgate.core.channel.socket.SessionFile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Gateway over WebSocket, JSON encoding (developers/events/gateway; SPEC CH-5, CH-0, IN-1): Hello, then Identify
 * (intents: guilds, guild messages, direct messages, and message content unless {@code message_content = false}) or
 * Resume (READY's {@code resume_gateway_url}, {@code session_id} and the last sequence handled); heartbeats at Hello's
 * interval, the first after a random fraction of it; a heartbeat whose ACK never came marks the connection a zombie,
 * which is closed with 4000 (never 1000/1001, which would end the session) and resumed. Reconnect (op 7) resumes;
 * Invalid Session (op 9) resumes or identifies anew after 1 to 5 s; one Identify per {@code identifyGap}
 * ({@code max_concurrency} 1). A connection that gets no Hello or no READY/RESUMED within {@code readyTimeout} is
 * stuck: reported and reconnected. Close codes 4004, 4010 to 4014 are fatal: the loop stops and health says the fix.
 *
 * <p>Dispatches are handled in order on this loop's thread; the sequence number advances only once a dispatch was
 * handled (its message committed to the inbox), so it is the receive position: a store failure drops the connection and
 * the Resume replays from the last message recorded, nothing lost (SPEC IN-3 after_receive_record, IN-4).
 */
final class GatewayClient {
    private static final Logger log = LoggerFactory.getLogger(GatewayClient.class);
    static final int INTENT_GUILDS = 1, GUILD_MESSAGES = 1 << 9, DIRECT_MESSAGES = 1 << 12, MESSAGE_CONTENT = 1 << 15;
    static final GatewaySocket.HeartbeatOps HEARTBEAT = new GatewaySocket.HeartbeatOps(1, 11);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /** Takes each dispatch; throws to leave it unhandled (the connection is dropped and the Resume replays it). */
    interface Dispatches {
        void handle(String type, JsonNode d) throws Exception;
    }

    /** How the loop is timed; tests shorten it. */
    record Timing(Duration firstBackoff, Duration readyTimeout, Duration identifyGap) {
        static final Timing DISCORD =
                new Timing(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMillis(5_200));
    }

    private final DiscordBot bot;
    private final Dispatches dispatches;
    private final HttpClient http;
    private final Timing timing;
    private volatile boolean running;
    private volatile Thread thread;
    private volatile GatewaySocket current;
    private volatile ChannelHealth health = ChannelHealth.down("connecting to the Discord Gateway");
    private volatile String fatal;
    private volatile int connections;
    // the session: kept across connections and across stop/start, so a restart resumes and loses nothing
    private volatile String sessionId;
    private volatile String resumeUrl;
    private volatile long seq;
    private long lastIdentify;
    private final SessionFile kept;

    /** @param kept where the session is kept across restarts, or null to keep it in memory only */
    GatewayClient(DiscordBot bot, Dispatches dispatches, HttpClient http, Timing timing, SessionFile kept) {
        this.bot = bot;
        this.dispatches = dispatches;
        this.http = http;
        this.timing = timing;
        this.kept = kept;
        SessionFile.Session s = kept == null ? null : kept.read();
        if (s != null) {
            sessionId = s.id();
            resumeUrl = s.resumeUrl();
            seq = s.seq();
        }
    }

    private void keep() {
        if (kept != null)
            kept.write(
                    sessionId == null || resumeUrl == null ? null : new SessionFile.Session(sessionId, resumeUrl, seq));
    }

    void start() {
        running = true;
        fatal = null;
        thread = Thread.ofVirtual().name("discord-gateway-" + bot.account.id()).start(this::run);
    }

    /** Stops: the socket is closed with 4000, so the session stays resumable for the next start. */
    void stop() {
        running = false;
        GatewaySocket.stopLoop(current, thread);
    }

    ChannelHealth health() {
        return health;
    }

    /** The fix for a fatal close, or null. */
    String fatal() {
        return fatal;
    }

    int connections() {
        return connections;
    }

    private void run() {
        Duration backoff = timing.firstBackoff();
        while (running) {
            boolean resuming = sessionId != null && resumeUrl != null;
            String why;
            boolean healthy = false;
            try {
                URI url = withQuery(resuming ? resumeUrl : gatewayUrl());
                GatewaySocket c = open(http, url, bot.api::redact);
                current = c;
                connections++;
                Outcome o = serve(c, resuming);
                c.close(4000, "reconnecting");
                current = null;
                if (!running) return;
                why = o.why();
                healthy = o.healthy();
                if (o.fatalFix() != null) {
                    fatal = o.fatalFix();
                    health = ChannelHealth.down(o.fatalFix());
                    log.error("discord [{}]: {}", bot.account.id(), o.fatalFix());
                    running = false;
                    return;
                }
                if (o.now()) {
                    log.info("discord [{}]: {}; reconnecting now", bot.account.id(), why);
                    backoff = timing.firstBackoff();
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            } catch (DiscordApiException e) {
                why = "GET /gateway/bot failed: " + e.getMessage();
                if (e.authRefused()) {
                    fatal = "Discord refuses the bot token (401); set channels.discord.bot_token to the bot's token "
                            + "(Developer Portal, Bot, "
                            + "Reset Token)";
                    health = ChannelHealth.down(fatal);
                    log.error("discord [{}]: {}", bot.account.id(), fatal);
                    running = false;
                    return;
                }
            } catch (IOException | RuntimeException e) {
                why = "Gateway connection failed: " + bot.api.redact(e.toString());
            }
            if (healthy) backoff = timing.firstBackoff();
            health = ChannelHealth.down(why);
            log.warn("discord [{}]: {}; reconnecting in {} ms", bot.account.id(), why, backoff.toMillis());
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /**
     * How a connection ended: why, whether to reconnect at once, whether it had been ready, and a fatal close's fix.
     */
    private record Outcome(String why, boolean now, boolean healthy, String fatalFix) {}

    private Outcome serve(GatewaySocket c, boolean resuming) throws InterruptedException {
        GatewaySocket.Frame hello = c.next(timing.readyTimeout());
        if (hello == null)
            return new Outcome(
                    "stuck: no Hello within " + timing.readyTimeout().toSeconds() + " s", false, false, null);
        if (hello.closeCode() != 0) return closed(hello.closeCode(), hello.reason(), false);
        if (hello.op() != 10)
            return new Outcome("the Gateway did not begin with Hello (op " + hello.op() + ")", false, false, null);
        long interval = hello.json().path("d").path("heartbeat_interval").asLong(41_250);
        Thread heart =
                Thread.ofVirtual().name("discord-heartbeat-" + bot.account.id()).start(() -> heartbeat(c, interval));
        try {
            if (resuming) {
                ObjectNode d = DiscordApi.JSON
                        .createObjectNode()
                        .put("token", bot.account.botToken())
                        .put("session_id", sessionId)
                        .put("seq", seq);
                c.send(6, d);
            } else {
                identify(c);
            }
            long deadline = System.nanoTime() + timing.readyTimeout().toNanos();
            boolean ready = false;
            while (running) {
                Duration left = ready ? Duration.ofSeconds(1) : Duration.ofNanos(deadline - System.nanoTime());
                if (!ready && left.isNegative()) {
                    return new Outcome(
                            "stuck: no " + (resuming ? "RESUMED" : "READY") + " within "
                                    + timing.readyTimeout().toSeconds()
                                    + " s",
                            false,
                            false,
                            null);
                }
                GatewaySocket.Frame f = c.next(left);
                if (c.zombie())
                    return new Outcome("no Heartbeat ACK: a zombied connection, closed to resume", true, ready, null);
                if (f == null) continue;
                if (f.closeCode() != 0) return closed(f.closeCode(), f.reason(), ready);
                JsonNode p = f.json();
                switch (f.op()) {
                    case 0 -> {
                        String type = p.path("t").asText("");
                        long s = p.path("s").asLong(seq);
                        if (type.equals("READY")) {
                            JsonNode d = p.path("d");
                            sessionId = d.path("session_id").asText(null);
                            resumeUrl = d.path("resume_gateway_url").asText(null);
                            bot.known(d.path("user"));
                            ready = true;
                            health = ChannelHealth.UP;
                            log.info("discord [{}]: connected as {} ({})", bot.account.id(), bot.name(), bot.userId());
                        } else if (type.equals("RESUMED")) {
                            ready = true;
                            health = ChannelHealth.UP;
                            log.info("discord [{}]: session resumed from sequence {}", bot.account.id(), seq);
                        } else {
                            try {
                                dispatches.handle(type, p.path("d"));
                            } catch (Exception e) {
                                return new Outcome(
                                        "dispatch " + s + " (" + type + ") not recorded, to be replayed: "
                                                + e.getMessage(),
                                        false,
                                        ready,
                                        null);
                            }
                        }
                        seq = Math.max(seq, s);
                        keep();
                    }
                    case 1 -> c.heartbeatNow(seq);
                    case 7 -> {
                        return new Outcome("Discord asked to reconnect (op 7)", true, ready, null);
                    }
                    case 9 -> {
                        boolean resumable = p.path("d").asBoolean(false);
                        if (!resumable) {
                            sessionId = null;
                            seq = 0;
                            keep();
                        }
                        Thread.sleep(ThreadLocalRandom.current().nextLong(1000, 5000));
                        return new Outcome(
                                "Invalid Session (" + (resumable ? "resumable" : "not resumable") + ")",
                                true,
                                ready,
                                null);
                    }
                    default -> {}
                }
            }
            return new Outcome("stopped", true, ready, null);
        } finally {
            heart.interrupt();
        }
    }

    private void identify(GatewaySocket c) throws InterruptedException {
        long gap = timing.identifyGap().toNanos() - (System.nanoTime() - lastIdentify);
        if (lastIdentify != 0 && gap > 0) Thread.sleep(Duration.ofNanos(gap));
        lastIdentify = System.nanoTime();
        int intents =
                INTENT_GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | (bot.account.messageContent() ? MESSAGE_CONTENT : 0);
        ObjectNode d = DiscordApi.JSON
                .createObjectNode()
                .put("token", bot.account.botToken())
                .put("intents", intents);
        d.putObject("properties")
                .put("os", System.getProperty("os.name", "linux").toLowerCase(java.util.Locale.ROOT))
                .put("browser", "clawgate")
                .put("device", "clawgate");
        c.send(2, d);
    }

    /**
     * Heartbeats: the first after {@code interval * jitter}, then every interval; an ACK missing at the next beat is a
     * zombie.
     */
    private void heartbeat(GatewaySocket c, long interval) {
        try {
            Thread.sleep((long) (interval * ThreadLocalRandom.current().nextDouble()));
            while (!Thread.currentThread().isInterrupted()) {
                if (!c.heartbeatNow(seq)) return;
                Thread.sleep(interval);
                if (!c.acked()) {
                    c.markZombie();
                    return;
                }
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    /** A close from Discord: fatal ones stop with the fix; 4007 and 4009 start a new session; the rest resume. */
    private Outcome closed(int code, String reason, boolean ready) {
        String key = bot.account.id().equals("default")
                ? "channels.discord"
                : "channels.discord.accounts." + bot.account.id();
        String fix = switch (code) {
            case 4004 ->
                "Discord closed the Gateway with 4004 (Authentication failed): the bot token is wrong or was "
                        + "reset; set " + key + ".bot_token to the bot's current token (Developer Portal, Bot, Reset "
                        + "Token)";
            case 4014 ->
                "Discord closed the Gateway with 4014 (Disallowed intents): the Message Content intent is not "
                        + "enabled for this bot; enable \"Message Content Intent\" in the Developer Portal (Bot, "
                        + "Privileged Gateway Intents), or set " + key + ".message_content = false and keep "
                        + "require_mention = true (DMs and mentions still carry content)";
            case 4013 ->
                "Discord closed the Gateway with 4013 (Invalid intents): this is a bug in clawgate's "
                        + "Identify; report it";
            case 4010, 4011 ->
                "Discord closed the Gateway with " + code + " ("
                        + (code == 4010 ? "Invalid shard" : "Sharding required")
                        + "): the bot is in too many guilds for one connection; sharding is not supported yet";
            case 4012 -> "Discord closed the Gateway with 4012 (Invalid API version): check " + key + ".gateway_url";
            default -> null;
        };
        if (fix != null) return new Outcome("closed " + code, false, ready, fix);
        if (code == 4007 || code == 4009) {
            sessionId = null;
            seq = 0;
            keep();
        }
        return new Outcome(
                "the Gateway closed the connection (" + code + (reason == null || reason.isBlank() ? "" : " " + reason)
                        + ")",
                ready && code != 4008,
                ready,
                null);
    }

    private URI gatewayUrl() throws DiscordApiException {
        if (bot.account.gatewayUrl() != null) return bot.account.gatewayUrl();
        String url = bot.api.get("GET /gateway/bot", "/gateway/bot").path("url").asText(null);
        if (url == null)
            throw new DiscordApiException(
                    "GET /gateway/bot named no url", DiscordApiException.Reach.ANSWERED, 200, 0, null, null);
        return URI.create(url);
    }

    /** Opens a Gateway socket: heartbeat op 1, answered by op 11. */
    static GatewaySocket open(HttpClient http, URI url, java.util.function.UnaryOperator<String> redact)
            throws java.io.IOException, InterruptedException {
        return new GatewaySocket(http, url, DiscordApi.CONNECT_TIMEOUT, HEARTBEAT, redact);
    }

    private static URI withQuery(Object base) {
        String s = base.toString().replaceAll("\\?.*$", "");
        if (URI.create(s).getPath() == null || URI.create(s).getPath().isEmpty()) s += "/";
        return URI.create(s + "?v=10&encoding=json");
    }
}
