package dev.clawgate.testkit.irc;

import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A person on IRC, as a test drives one: a raw-socket client (RFC 2812) that registers a nick, joins channels, says
 * things and records, byte for byte, every line the server sends it. Its {@link #calls()} are the PRIVMSG and NOTICE
 * lines it received, so the capability harness checks what really reached a user through the server.
 */
public final class IrcUser implements PlatformCallLog, AutoCloseable {
    /** One line as it came off the wire, with its length in bytes (CRLF excluded). */
    public record RawLine(String text, int bytes) {}

    private final String nick;
    private final Socket socket;
    private final OutputStream out;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final List<RawLine> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private IrcUser(String nick, Socket socket) throws IOException {
        this.nick = nick;
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.reader = Thread.ofVirtual().name("irc-user-" + nick).start(this::read);
    }

    /** Connects to {@code server} and registers as {@code nick}; returns once the server welcomed it (001). */
    public static IrcUser connect(Ngircd server, String nick) {
        try {
            IrcUser u = new IrcUser(nick, new Socket(server.host(), server.port()));
            u.send("NICK " + nick);
            u.send("USER " + nick + " 0 * :" + nick);
            u.await("the welcome for " + nick, l -> l.text().contains(" 001 "));
            return u;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String nick() {
        return nick;
    }

    private void read() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(new RawLine(line, line.getBytes(StandardCharsets.UTF_8).length));
                if (line.startsWith("PING ")) send("PONG " + line.substring(5));
            }
        } catch (IOException closed) {
            // the test closed it, or the server went away: the recorded lines stay
        }
    }

    /** Sends one raw line (CRLF added). */
    public void send(String line) {
        writeLock.lock();
        try {
            out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Joins {@code channel} and waits until the server confirmed it (the names list ended). */
    public void join(String channel) {
        send("JOIN " + channel);
        await(nick + " joined " + channel, l -> l.text().contains(" 366 " + nick + " " + channel + " "));
    }

    public void say(String target, String text) {
        send("PRIVMSG " + target + " :" + text);
    }

    /** Every line received so far. */
    public List<RawLine> lines() {
        return List.copyOf(lines);
    }

    /**
     * The PRIVMSG lines from {@code fromNick} to {@code target} (a channel, or this user's nick for a query), oldest
     * first.
     */
    public List<RawLine> privmsgs(String fromNick, String target) {
        String head = ":" + fromNick + "!";
        String command = " PRIVMSG " + target + " :";
        return lines.stream()
                .filter(l -> l.text().startsWith(head) && l.text().contains(command))
                .toList();
    }

    /** The texts of {@link #privmsgs}. */
    public List<String> texts(String fromNick, String target) {
        String command = " PRIVMSG " + target + " :";
        return privmsgs(fromNick, target).stream()
                .map(l -> l.text().substring(l.text().indexOf(command) + command.length()))
                .toList();
    }

    /** Waits up to 20 s for a line matching {@code condition}. */
    public RawLine await(String what, Predicate<RawLine> condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (Instant.now().isBefore(deadline)) {
            for (RawLine l : lines) {
                if (condition.test(l)) return l;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("not within 20 s: " + what + "; received: " + lines);
    }

    /** The PRIVMSG and NOTICE lines received, as platform calls: method is the command, body the whole line. */
    @Override
    public List<PlatformCall> calls() {
        List<PlatformCall> calls = new ArrayList<>();
        for (RawLine l : lines) {
            String[] words = l.text().split(" ", 3);
            if (words.length >= 2
                    && (words[1].equals("PRIVMSG") || words[1].equals("NOTICE"))
                    && l.text().startsWith(":")
                    && l.text().contains("!")) {
                calls.add(new PlatformCall(words[1], l.text(), Map.of("bytes", Integer.toString(l.bytes()))));
            }
        }
        return calls;
    }

    @Override
    public void close() {
        try {
            send("QUIT :bye");
        } catch (UncheckedIOException alreadyGone) {
            // the server is down: closing the socket is all there is to do
        }
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        reader.interrupt();
    }
}
