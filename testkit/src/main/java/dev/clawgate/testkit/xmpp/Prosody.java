package dev.clawgate.testkit.xmpp;

import dev.clawgate.testkit.internal.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's real XMPP server, {@code prosody}, run by a test in the foreground ({@code -F}) on a free loopback port with
 * its own config, data dir and accounts (SPEC CH-8: XMPP is tested against a real server, not a fake). It runs as the
 * current user; its accounts are written as prosody's own {@code internal_plain} account files before it starts.
 * {@link #restart()} kills it and brings it back on the same port with the same data (offline messages kept), as a
 * server restart does to a connected client. Without prosody installed, {@link #start} fails saying how to install it.
 */
public final class Prosody implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/bin/prosody");
    public static final String DOMAIN = "localhost";
    public static final String MUC_DOMAIN = "conference.localhost";

    private final Path dir;
    private final int port;
    private final ServerProcess server;

    private Prosody(Path dir, int port) {
        this.dir = dir;
        this.port = port;
        this.server = new ServerProcess(
                "prosody",
                dir,
                port,
                List.of(
                        BINARY.toString(),
                        "-F",
                        "--config",
                        dir.resolve("prosody.cfg.lua").toString()),
                List.of("prosody.out", "prosody.log"),
                Duration.ofSeconds(20));
    }

    /** Starts prosody with one account per {@code user:password} pair, e.g. {@code "bot:secret"}. */
    public static Prosody start(String... accounts) {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY
                    + " is missing: install Debian's prosody (apt-get install -y prosody); "
                    + "the XMPP tests run against the real server and never skip");
        }
        try {
            Path dir = Files.createTempDirectory("prosody-test");
            Prosody server = new Prosody(dir, ServerProcess.freePort());
            server.writeConfig();
            for (String account : accounts) {
                int colon = account.indexOf(':');
                server.addAccount(account.substring(0, colon), account.substring(colon + 1));
            }
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

    /** The bare JID of an account on this server. */
    public String jid(String user) {
        return user + "@" + DOMAIN;
    }

    private void writeConfig() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        // no TLS certificate, no s2s, no HTTP: a loopback test server that needs nothing of the machine;
        // smacks (XEP-0198) and offline storage are what the reconnect tests prove against
        Files.writeString(dir.resolve("prosody.cfg.lua"), """
                run_as_root = true
                pidfile = "%1$s/prosody.pid"
                data_path = "%1$s/data"
                log = { { levels = { min = "info" }, to = "file", filename = "%1$s/prosody.log" } }
                interfaces = { "127.0.0.1" }
                local_interfaces = { "127.0.0.1" }
                c2s_ports = { %2$d }
                c2s_direct_tls_ports = { }
                s2s_ports = { }
                modules_enabled = { "roster", "saslauth", "disco", "ping", "posix", "smacks", "carbons",
                                    "offline", "presence", "message", "iq" }
                modules_disabled = { "s2s", "tls" }
                authentication = "internal_plain"
                storage = "internal"
                c2s_require_encryption = false
                allow_unencrypted_plain_auth = true
                smacks_hibernation_time = 300
                limits = { c2s = { rate = "10mb/s" } }

                VirtualHost "%3$s"

                -- rooms outlive a restart, as a deployment's configured rooms do
                Component "%4$s" "muc"
                    restrict_room_creation = false
                    muc_room_default_persistent = true
                """.formatted(dir, port, DOMAIN, MUC_DOMAIN));
    }

    /** An account in prosody's internal_plain store: {@code data/<host>/accounts/<user>.dat}. */
    private void addAccount(String user, String password) throws IOException {
        Path accounts = dir.resolve("data").resolve(DOMAIN).resolve("accounts");
        Files.createDirectories(accounts);
        Files.writeString(
                accounts.resolve(user + ".dat"),
                "return {\n\t[\"password\"] = \""
                        + password.replace("\\", "\\\\").replace("\"", "\\\"") + "\";\n};\n");
    }

    /** Kills the server abruptly (SIGKILL): every client connection is cut without a word. */
    public void kill() {
        server.kill();
    }

    /** Starts the server again on the same port with the same config and data (a server restart). */
    public void restart() {
        kill();
        try {
            Files.deleteIfExists(dir.resolve("prosody.pid"));
            server.launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What prosody logged, for a failure message. */
    public String log() {
        return server.log();
    }

    @Override
    public void close() {
        server.close();
    }
}
