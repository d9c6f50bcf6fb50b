package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image's health probe against a real HTTP server on loopback: 200 is healthy, anything else (503, a
 * refused connection, no answer) is not, and the address comes from the gateway's own config (SPEC OP-3, OP-9).
 */
class HealthProbeTest {
    @TempDir
    Path dir;

    private HttpServer server;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    /** A server answering /healthz with {@code status}; returns its port. */
    private int serve(int status) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = (exchange.getRequestURI().getPath().equals("/healthz") ? "ok" : "no").getBytes();
            exchange.sendResponseHeaders(
                    exchange.getRequestURI().getPath().equals("/healthz") ? status : 404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server.getAddress().getPort();
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void twoHundredFromHealthzIsHealthy() throws Exception {
        // SPEC OP-3: /healthz answers 200 without a token; SPEC OP-9: the image's health check asks it
        int port = serve(200);
        assertThat(HealthProbe.run(new String[] {"127.0.0.1:" + port}, Map.of(), out))
                .isZero();
        assertThat(printed())
                .isEqualTo("healthcheck: http://127.0.0.1:" + port + "/healthz 200" + System.lineSeparator());
    }

    @Test
    void anotherStatusIsUnhealthy() throws Exception {
        // SPEC OP-9
        int port = serve(503);
        assertThat(HealthProbe.run(new String[] {"127.0.0.1:" + port}, Map.of(), out))
                .isEqualTo(1);
        assertThat(printed()).contains("/healthz 503");
    }

    @Test
    void aRefusedConnectionIsUnhealthy() throws Exception {
        // SPEC OP-9: the gateway is down
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertThat(HealthProbe.run(new String[] {"127.0.0.1:" + port}, Map.of(), out))
                .isEqualTo(1);
        assertThat(printed()).contains("ConnectException");
    }

    @Test
    void aGatewayThatNeverAnswersIsUnhealthyWithinTheReadTimeout() throws Exception {
        // SPEC OP-9: a hung gateway must not hang the probe past Docker's timeout
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            long start = System.nanoTime();
            int code = HealthProbe.run(new String[] {"127.0.0.1:" + s.getLocalPort()}, Map.of(), out);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(code).isEqualTo(1);
            assertThat(printed()).contains("SocketTimeoutException");
            // at worst a full connect and read timeout: well inside the image check's 10 s timeout
            assertThat(ms)
                    .isBetween(
                            (long) HealthProbe.READ_TIMEOUT_MS - 100,
                            HealthProbe.CONNECT_TIMEOUT_MS + HealthProbe.READ_TIMEOUT_MS + 2_000L);
        }
    }

    @Test
    void theAddressIsTheConfigsBindWithAWildcardAskedOnLoopbackAndNoSecretPrinted() throws Exception {
        // SPEC OP-3, OP-6: gateway.bind from $CLAWGATE_CONFIG, ${VAR} expanded; the token is never printed
        int port = serve(200);
        Path config = dir.resolve("clawgate.toml");
        Files.writeString(config, """
                [agent]
                bind = "127.0.0.1:1"

                [gateway] # the gateway's table
                data_dir = "/data/clawgate"
                bind = "0.0.0.0:${PORT}"  # all interfaces
                auth_token = "${CLAWGATE_AUTH_TOKEN}"
                """);
        Map<String, String> env = Map.of(
                "CLAWGATE_CONFIG", config.toString(), "PORT", String.valueOf(port), "CLAWGATE_AUTH_TOKEN", "s3cret");
        assertThat(HealthProbe.run(new String[0], env, out)).isZero();
        assertThat(printed())
                .contains("http://127.0.0.1:" + port + "/healthz 200")
                .doesNotContain("s3cret");
    }

    @Test
    void theConfigsAbsentsAndErrorsAreSaid() throws Exception {
        // SPEC OP-3: without a bind key the gateway listens on its default, and so the probe asks there
        Path config = dir.resolve("clawgate.toml");
        Files.writeString(config, "[gateway]\ndata_dir = \"d\"\n");
        assertThat(HealthProbe.bindFromConfig(Map.of("CLAWGATE_CONFIG", config.toString())))
                .isEqualTo(HealthProbe.DEFAULT_BIND);
        assertThat(HealthProbe.bindIn(List.of("[gateway]", "bind = '[::]:9000'")))
                .isEqualTo("[::]:9000");
        assertThat(HealthProbe.loopbackFor("[::]:9000")).isEqualTo("[::1]:9000");
        // a named config that is not there, an unset variable, an address without a port: unhealthy, and why
        Map<String, String> missing =
                Map.of("CLAWGATE_CONFIG", dir.resolve("nope.toml").toString());
        assertThat(HealthProbe.run(new String[0], missing, out)).isEqualTo(1);
        Files.writeString(config, "[gateway]\nbind = \"127.0.0.1:${UNSET_PORT}\"\n");
        assertThat(HealthProbe.run(new String[0], Map.of("CLAWGATE_CONFIG", config.toString()), out))
                .isEqualTo(1);
        assertThat(HealthProbe.run(new String[] {"localhost"}, Map.of(), out)).isEqualTo(1);
        assertThat(printed().lines())
                .containsExactly(
                        "healthcheck: no config file " + dir.resolve("nope.toml") + " ($CLAWGATE_CONFIG)",
                        "healthcheck: gateway.bind in " + config + " names ${UNSET_PORT}, unset",
                        "healthcheck: 'localhost' is not host:port");
    }

    @Test
    void itRunsAsItsOwnJvmWithTheServersClassesAloneOnTheClassPath() throws Exception {
        // SPEC OP-9: what the image's Healthcheck runs; no picocli or Jackson is needed to load it
        int port = serve(200);
        String classes = Path.of(HealthProbe.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classes,
                HealthProbe.class.getName(),
                "127.0.0.1:" + port));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).isEqualTo("healthcheck: http://127.0.0.1:" + port + "/healthz 200" + System.lineSeparator());
        System.out.printf("the health probe's JVM, start to exit: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        server.stop(0);
        server = null;
        Process down = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("ConnectException");
        assertThat(down.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(down.exitValue()).isEqualTo(1);
    }
}
