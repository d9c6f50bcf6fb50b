package dev.clawgate.channel.irc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.irc.Ngircd;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * SASL PLAIN (IRCv3 SASL 3.1, SPEC CH-7). ngircd offers no SASL, so the exchange is tested against a loopback server
 * that speaks it line by line as a network with services does; ngircd itself shows that a configured sasl_user on a
 * server without SASL is a loud failure, not a silent unauthenticated login.
 */
class IrcSaslTest {

    /** One connection, answered as an IRCv3 server with SASL answers; {@code accept} decides the login. */
    private static final class SaslServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0);
        final List<String> received = new CopyOnWriteArrayList<>();

        SaslServer(boolean accept) throws IOException {
            Thread.ofVirtual().start(() -> {
                try (Socket s = socket.accept()) {
                    BufferedReader in =
                            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    OutputStream out = s.getOutputStream();
                    String nick = "*";
                    for (String line; (line = in.readLine()) != null; ) {
                        received.add(line);
                        String reply = null;
                        if (line.startsWith("CAP LS")) reply = ":srv CAP * LS :multi-prefix sasl=PLAIN,EXTERNAL";
                        else if (line.equals("CAP REQ :sasl")) reply = ":srv CAP * ACK :sasl";
                        else if (line.equals("AUTHENTICATE PLAIN")) reply = "AUTHENTICATE +";
                        else if (line.startsWith("AUTHENTICATE "))
                            reply = accept
                                    ? ":srv 903 " + nick + " :SASL authentication successful"
                                    : ":srv 904 " + nick + " :SASL authentication failed";
                        else if (line.startsWith("NICK ")) nick = line.substring(5);
                        else if (line.equals("CAP END")) reply = ":srv 001 " + nick + " :Welcome";
                        if (reply != null) {
                            out.write((reply + "\r\n").getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                } catch (IOException closed) {
                    // the client went away: the test reads what was received
                }
            });
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static IrcChannel channel(String host, int port) {
        Map<String, String> o = Map.of(
                "server",
                host,
                "port",
                Integer.toString(port),
                "nick",
                "clawbot",
                "sasl_user",
                "botacct",
                "sasl_password",
                "s3cret-pw");
        return new IrcChannel(IrcSettings.of(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o)));
    }

    @Test
    void saslPlainLogsInBeforeRegistrationEnds() throws Exception {
        try (SaslServer srv = new SaslServer(true)) {
            IrcChannel c = channel("127.0.0.1", srv.socket.getLocalPort());
            try {
                c.start(new RecordingInbox());
                await().atMost(Duration.ofSeconds(20)).until(() -> c.health().healthy());
                List<String> got = srv.received;
                assertThat(got).startsWith("CAP LS 302");
                String auth = got.stream()
                        .filter(l -> l.startsWith("AUTHENTICATE ") && !l.equals("AUTHENTICATE PLAIN"))
                        .findFirst()
                        .orElseThrow();
                assertThat(new String(Base64.getDecoder().decode(auth.substring(13)), StandardCharsets.UTF_8))
                        .isEqualTo("botacct\0botacct\0s3cret-pw");
                assertThat(got.indexOf("CAP REQ :sasl")).isLessThan(got.indexOf("AUTHENTICATE PLAIN"));
                assertThat(got.indexOf(auth)).isLessThan(got.indexOf("CAP END"));
            } finally {
                c.stop();
            }
        }
    }

    @Test
    void aRefusedSaslLoginIsUnhealthyAndSaysWhy() throws Exception {
        try (SaslServer srv = new SaslServer(false)) {
            IrcChannel c = channel("127.0.0.1", srv.socket.getLocalPort());
            try {
                c.start(new RecordingInbox());
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> c.health().detail().contains("SASL login as botacct was refused"));
                assertThat(c.health().healthy()).isFalse();
                assertThat(c.health().detail()).doesNotContain("s3cret-pw");
                assertThat(srv.received).doesNotContain("CAP END");
            } finally {
                c.stop();
            }
        }
    }

    @Test
    void saslConfiguredOnAServerWithoutSaslIsAFailureNotAnAnonymousLogin() {
        try (Ngircd server = Ngircd.start()) {
            IrcChannel c = channel(server.host(), server.port());
            try {
                c.start(new RecordingInbox());
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> c.health().detail().contains("offers no SASL"));
                assertThat(c.health().healthy()).isFalse();
            } finally {
                c.stop();
            }
        }
    }
}
