package dev.clawgate.channel.irc;

import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The IRC client connection (SPEC CH-7, RFC 1459/2812, IRCv3 SASL 3.1): connects (TLS optional), registers (PASS, CAP
 * LS/REQ sasl with AUTHENTICATE PLAIN when configured, NICK, USER), takes another nick while its nick is in use (433),
 * answers PING, joins the configured channels and joins again after a KICK and after every reconnect. PRIVMSGs become
 * inbound messages: every query (a DM), and channel lines, which start a turn only when addressed ({@code nick: ...} or
 * {@code nick, ...}) and are context otherwise. A lost connection is retried with backoff (1 s doubling to 60 s) while
 * the channel runs (SPEC CH-0). Lines it writes pass a flood-control token bucket.
 */
final class IrcClient {
    private static final Logger log = LoggerFactory.getLogger(IrcClient.class);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
    /** No line for this long: we PING; no line for twice this long: the connection is dead. */
    static final Duration READ_IDLE = Duration.ofSeconds(90);

    static final Duration REJOIN_DELAY = Duration.ofSeconds(2);
    private static final int MAX_LINE = 512;

    /** Thrown when the server refuses us in a way a reconnect cannot mend by itself (bad nick, SASL refused). */
    static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    /** The live connection: its socket, its writer, and what we know of ourselves there. */
    private final class Session {
        final Socket socket;
        final OutputStream out;
        volatile String nick;
        volatile String prefix;
        volatile boolean registered;
        final Set<String> joined = ConcurrentHashMap.newKeySet();

        Session(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.nick = settings.nick();
        }
    }

    private final IrcSettings settings;
    private final String channelName;
    private final TokenBucket bucket;
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile InboundSink sink;
    private volatile Session session;
    private volatile Thread loop;
    private volatile ChannelHealth health = ChannelHealth.down("not started");
    private volatile int connections;
    private final java.util.concurrent.atomic.AtomicLong privmsgsWritten = new java.util.concurrent.atomic.AtomicLong();

    IrcClient(IrcSettings settings, String channelName, TokenBucket bucket) {
        this.settings = settings;
        this.channelName = channelName;
        this.bucket = bucket;
    }

    void start(InboundSink inboundSink) {
        if (loop != null) throw new IllegalStateException("irc channel already started");
        this.sink = inboundSink;
        health = ChannelHealth.down("connecting to " + settings.server() + ":" + settings.port());
        // the thread runs while it is the loop: assigned before it starts, so it never sees itself missing
        Thread t = Thread.ofVirtual().name("irc-" + settings.server()).unstarted(this::run);
        loop = t;
        t.start();
    }

    void stop() {
        Thread t = loop;
        loop = null;
        sink = null;
        Session s = session;
        if (s != null) {
            try {
                writeNow(s, "QUIT :Clawgate stopping");
            } catch (IOException gone) {
                log.debug("irc: QUIT not sent, the connection was gone: {}", gone.toString());
            }
            closeQuietly(s.socket);
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        session = null;
        health = ChannelHealth.down("stopped");
    }

    ChannelHealth health() {
        return health;
    }

    /** Connections opened so far (the first and every reconnect). */
    int connections() {
        return connections;
    }

    /** The nick we have on the current connection, or the configured one when not connected. */
    String nick() {
        Session s = session;
        return s == null ? settings.nick() : s.nick;
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (loop == Thread.currentThread()) {
            try {
                session();
            } catch (Refused e) {
                health = ChannelHealth.down(e.getMessage());
                log.error("irc {}:{}: {}", settings.server(), settings.port(), e.getMessage());
            } catch (IOException e) {
                health = ChannelHealth.down("disconnected: " + e.getMessage());
                log.warn(
                        "irc {}:{}: connection lost ({}); reconnecting in {} ms",
                        settings.server(),
                        settings.port(),
                        e.getMessage(),
                        backoff.toMillis());
            }
            Session s = session;
            boolean wasRegistered = s != null && s.registered;
            session = null;
            if (loop != Thread.currentThread()) return;
            if (wasRegistered) backoff = FIRST_BACKOFF;
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException stopped) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /** One connection, from connect to its end; returns or throws when it is over. */
    private void session() throws IOException {
        Socket socket = IrcSockets.open(settings, READ_IDLE);
        connections++;
        Session s = new Session(socket);
        session = s;
        try (socket) {
            register(s);
            BufferedReader in = new BufferedReader(new InputStreamReader(
                    socket.getInputStream(),
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPLACE)
                            .onUnmappableCharacter(CodingErrorAction.REPLACE)));
            boolean pinged = false;
            while (loop == Thread.currentThread()) {
                String raw;
                try {
                    raw = in.readLine();
                } catch (SocketTimeoutException idle) {
                    if (pinged)
                        throw new IOException("no answer from the server for "
                                + READ_IDLE.multipliedBy(2).toSeconds() + " s");
                    writeNow(s, "PING :" + settings.server());
                    pinged = true;
                    continue;
                }
                if (raw == null) throw new IOException("the server closed the connection");
                pinged = false;
                if (raw.isEmpty()) continue;
                handle(s, IrcLine.parse(raw));
            }
        }
    }

    private void register(Session s) throws IOException {
        if (settings.password() != null) writeNow(s, "PASS " + settings.password());
        if (settings.saslUser() != null) writeNow(s, "CAP LS 302");
        writeNow(s, "NICK " + s.nick);
        writeNow(s, "USER " + settings.username() + " 0 * :" + settings.realname());
    }

    private void handle(Session s, IrcLine l) throws IOException {
        switch (l.command()) {
            case "PING" -> writeNow(s, "PONG :" + l.trailing());
            case "CAP" -> cap(s, l);
            case "AUTHENTICATE" -> {
                if (l.param(0).equals("+")) {
                    String plain = settings.saslUser() + "\0" + settings.saslUser() + "\0" + settings.saslPassword();
                    String encoded = Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
                    // IRCv3 SASL: at most 400 bytes per AUTHENTICATE, "+" after a last chunk of exactly 400
                    for (int i = 0; i < encoded.length(); i += 400)
                        writeNow(s, "AUTHENTICATE " + encoded.substring(i, Math.min(encoded.length(), i + 400)));
                    if (encoded.length() % 400 == 0) writeNow(s, "AUTHENTICATE +");
                }
            }
            case "903" -> writeNow(s, "CAP END");
            case "902", "904", "905", "906", "908" ->
                throw new Refused("SASL login as " + settings.saslUser() + " was refused (" + l.command() + " "
                        + l.trailing() + "); check sasl_user and sasl_password");
            case "001" -> welcomed(s, l);
            case "433", "436" -> {
                if (!s.registered) {
                    s.nick = nextNick(s.nick);
                    log.warn("irc: nick {} is in use, trying {}", l.param(1), s.nick);
                    writeNow(s, "NICK " + s.nick);
                }
            }
            case "432" ->
                throw new Refused(
                        "the server refuses the nick " + s.nick + " (" + l.trailing() + "); set channels.irc.nick");
            case "464" -> throw new Refused("the server refuses the password (464); check channels.irc.password");
            case "465" -> throw new Refused("the server bans this client (465): " + l.trailing());
            case "NICK" -> {
                if (l.nick().equalsIgnoreCase(s.nick)) s.nick = l.param(0);
            }
            case "JOIN" -> {
                if (l.nick().equalsIgnoreCase(s.nick)) {
                    s.joined.add(l.param(0).toLowerCase(Locale.ROOT));
                    s.prefix = l.prefix();
                    log.info("irc: joined {}", l.param(0));
                }
            }
            case "KICK" -> {
                if (l.param(1).equalsIgnoreCase(s.nick)) {
                    String channel = l.param(0);
                    s.joined.remove(channel.toLowerCase(Locale.ROOT));
                    log.warn(
                            "irc: kicked from {} by {} ({}); joining again in {} s",
                            channel,
                            l.nick(),
                            l.trailing(),
                            REJOIN_DELAY.toSeconds());
                    Thread.ofVirtual().name("irc-rejoin").start(() -> rejoin(s, channel));
                }
            }
            case "PRIVMSG" -> privmsg(s, l);
            case "ERROR" -> throw new IOException("the server closed the link: " + l.trailing());
            default -> {
                // numerics and commands this client has no use for (MOTD, NOTICE, MODE, ...)
            }
        }
    }

    private void cap(Session s, IrcLine l) throws IOException {
        String sub = l.param(1);
        if (sub.equals("LS")) {
            // a multi-line LS has "*" before the last parameter; wait for the final one
            if (l.params().size() >= 4 && l.param(2).equals("*")) return;
            boolean sasl =
                    List.of(l.trailing().split(" ")).stream().anyMatch(c -> c.equals("sasl") || c.startsWith("sasl="));
            if (!sasl) {
                writeNow(s, "CAP END");
                throw new Refused("sasl_user is set but the server offers no SASL (CAP LS: " + l.trailing() + ")");
            }
            writeNow(s, "CAP REQ :sasl");
        } else if (sub.equals("ACK") && l.trailing().trim().equals("sasl")) {
            writeNow(s, "AUTHENTICATE PLAIN");
        } else if (sub.equals("NAK")) {
            writeNow(s, "CAP END");
            throw new Refused("the server refused the sasl capability");
        }
    }

    private void welcomed(Session s, IrcLine l) throws IOException {
        s.registered = true;
        s.nick = l.param(0);
        // RFC 2812 5.1: the welcome usually ends with our full nick!user@host, the prefix our lines are relayed with
        String[] words = l.trailing().split(" ");
        String last = words[words.length - 1];
        if (last.startsWith(s.nick + "!") && last.indexOf('@') > 0) s.prefix = last;
        health = ChannelHealth.UP;
        log.info("irc {}:{}: registered as {}", settings.server(), settings.port(), s.nick);
        if (!settings.channels().isEmpty()) writeNow(s, "JOIN " + String.join(",", settings.channels()));
    }

    private void rejoin(Session s, String channel) {
        try {
            Thread.sleep(REJOIN_DELAY);
            if (session == s && loop != null) writeNow(s, "JOIN " + channel);
        } catch (InterruptedException | IOException e) {
            log.warn("irc: joining {} again failed: {}", channel, e.toString());
        }
    }

    /** The nick to try after {@code taken}: a _ added, or the last character turned into _ when the nick is long. */
    static String nextNick(String taken) {
        return taken.length() < 16 ? taken + "_" : taken.substring(0, taken.length() - 1) + "_" + taken.length() % 10;
    }

    private void privmsg(Session s, IrcLine l) {
        InboundSink to = sink;
        if (to == null) return;
        InboundMessage m = IrcInbound.message(channelName, l, s.nick);
        if (m == null) return;
        try {
            to.accept(m);
        } catch (RuntimeException e) {
            // IRC cannot redeliver: the line is lost, so say so loudly
            log.error(
                    "irc: a message from {} in {} could not be recorded and is lost (IRC has no redelivery): {}",
                    m.sender(),
                    m.chatType() == ChatType.DIRECT ? "a query" : m.replyTarget(),
                    e.toString());
        }
    }

    /**
     * The bytes a relayed PRIVMSG to {@code target} spends before its text: {@code :nick!user@host PRIVMSG target :}
     * and CRLF.
     */
    int overhead(String target) {
        Session s = session;
        String prefix = s != null && s.prefix != null
                ? s.prefix
                // before the server told us our host (no JOIN yet): the longest it can be (RFC 2812: 63-byte host
                // names)
                : nick() + "!~" + settings.username() + "@" + "h".repeat(63);
        return IrcText.utf8(":" + prefix + " PRIVMSG " + target + " :") + 2;
    }

    /** Whether a registered connection is up. */
    boolean connected() {
        Session s = session;
        return s != null && s.registered;
    }

    /**
     * Writes one PRIVMSG line to the current connection through flood control.
     *
     * @throws IOException when there is no registered connection or the write failed
     */
    void privmsg(String target, String text) throws IOException, InterruptedException {
        Session s = session;
        if (s == null || !s.registered) throw new IOException("not connected to " + settings.server());
        bucket.take();
        writeNow(s, "PRIVMSG " + target + " :" + text);
        privmsgsWritten.incrementAndGet();
    }

    /** PRIVMSG lines written to the server so far. */
    long privmsgsWritten() {
        return privmsgsWritten.get();
    }

    private void writeNow(Session s, String line) throws IOException {
        byte[] bytes = (line + "\r\n").getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_LINE)
            throw new IllegalArgumentException("an IRC line of " + bytes.length + " bytes is over 512");
        writeLock.lock();
        try {
            s.out.write(bytes);
            s.out.flush();
        } finally {
            writeLock.unlock();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            log.debug("irc: closing the socket: {}", e.toString());
        }
    }
}
