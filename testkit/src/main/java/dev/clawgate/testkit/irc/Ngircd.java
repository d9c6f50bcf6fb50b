package dev.clawgate.testkit.irc;

import dev.clawgate.testkit.internal.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's real IRC server, {@code ngircd}, run by a test in the foreground ({@code -n}) on a free loopback port with
 * its own config file in a temp dir (SPEC CH-7: IRC is tested against a real server, not a fake). {@link #kill()} and
 * {@link #restart()} stop it abruptly and bring it back on the same port, as a server restart does to a connected
 * client. Without ngircd installed, {@link #start} fails saying how to install it: these tests never skip.
 */
public final class Ngircd implements AutoCloseable {
    /** Where Debian's package puts it. */
    public static final Path BINARY = Path.of("/usr/sbin/ngircd");

    public static final String SERVER_NAME = "irc.clawgate.test";

    private final Path dir;
    private final int port;
    private final ServerProcess server;

    private Ngircd(Path dir, int port) {
        this.dir = dir;
        this.port = port;
        this.server = new ServerProcess(
                "ngircd",
                dir,
                port,
                List.of(
                        BINARY.toString(),
                        "-n",
                        "-f",
                        dir.resolve("ngircd.conf").toString()),
                List.of("ngircd.log"),
                Duration.ofSeconds(10));
    }

    /** Starts ngircd on a free port, its config and log in a new temp dir. */
    public static Ngircd start() {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(
                    BINARY + " is missing: install Debian's ngircd (apt-get install -y ngircd); "
                            + "the IRC tests run against the real server and never skip");
        }
        try {
            Path dir = Files.createTempDirectory("ngircd-test");
            Ngircd server = new Ngircd(dir, ServerProcess.freePort());
            server.writeConfig();
            server.server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    private void writeConfig() throws IOException {
        // PAM, ident and DNS lookups off: a local test server answers at once and asks nothing of the machine
        Files.writeString(dir.resolve("ngircd.conf"), """
                [Global]
                Name = %s
                Info = clawgate test server
                Listen = 127.0.0.1
                Ports = %d
                MotdPhrase = clawgate test server
                AdminInfo1 = clawgate tests
                AdminInfo2 = loopback
                AdminEMail = dev@clawgate.local

                [Limits]
                MaxNickLength = 30
                MaxConnectionsIP = 0
                PingTimeout = 120
                PongTimeout = 20

                [Options]
                PAM = no
                Ident = no
                DNS = no
                """.formatted(SERVER_NAME, port));
    }

    /** Kills the server abruptly (SIGKILL): every client connection is cut without a word. */
    public void kill() {
        server.kill();
    }

    /** Starts the server again on the same port, with the same config (a server restart). */
    public void restart() {
        kill();
        try {
            server.launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What ngircd logged, for a failure message. */
    public String log() {
        return server.log();
    }

    @Override
    public void close() {
        server.close();
    }
}
