package dev.clawgate.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.McpServerSettings;
import dev.clawgate.core.config.McpSettings;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import dev.clawgate.mcp.internal.ServerConnection;
import dev.clawgate.mcp.testserver.HttpTestServer;
import dev.clawgate.mcp.testserver.StdioTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP client against real MCP server processes over stdio and a real streamable-HTTP server on a loopback port,
 * both the official SDK's server side (SPEC AG-7).
 */
class McpServersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ServerConnection.Timing FAST = new ServerConnection.Timing(
            Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(30), Duration.ofMillis(500));
    private static final String TOKEN = "tok-0123456789-secret";

    @TempDir
    Path dir;

    private final String marker = UUID.randomUUID().toString();
    private McpServers servers;

    @AfterEach
    void close() {
        if (servers != null) servers.close();
    }

    private McpServerSettings stdio(String name, List<String> allow, Duration timeout) {
        List<String> cmd = StdioTestServer.commandLine(marker);
        return new McpServerSettings(
                name,
                cmd.getFirst(),
                cmd.subList(1, cmd.size()),
                Map.of(
                        "MCP_TOKEN",
                        TOKEN,
                        "MCP_BLOCK_FILE",
                        dir.resolve("block").toString(),
                        "MCP_PID_FILE",
                        dir.resolve(name + ".pid").toString()),
                null,
                Map.of(),
                allow,
                timeout,
                List.of(TOKEN));
    }

    private McpServers start(McpServerSettings... s) {
        Map<String, McpServerSettings> m = new java.util.LinkedHashMap<>();
        for (McpServerSettings x : s) m.put(x.name(), x);
        servers = McpServers.start(new McpSettings(m), FAST);
        return servers;
    }

    private Tool awaitTool(String name) {
        // a server JVM can take tens of seconds to start on a loaded 2-core machine (it did, once, in CI)
        await().atMost(Duration.ofSeconds(90))
                .until(() -> servers.tools().stream().anyMatch(t -> t.name().equals(name)));
        return servers.tools().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private ToolResult call(String tool, String args, CancelToken cancel) throws Exception {
        return awaitTool(tool).execute(JSON.readTree(args), new ToolContext(dir, null, cancel));
    }

    private List<String> names() {
        return servers.tools().stream().map(Tool::name).toList();
    }

    @Test
    void aStdioServersAllowedToolsAreOfferedWithTheirSchemasAndAnswer() throws Exception {
        // SPEC AG-7: <server>__<tool>, the server's JSON schema, the per-server allowlist
        start(stdio("files", List.of("echo", "env", "leak", "grow", "slow"), Duration.ofSeconds(30)));
        Tool echo = awaitTool("files__echo");
        assertThat(names()).containsExactly("files__echo", "files__env", "files__leak", "files__slow", "files__grow");
        JsonNode schema = echo.parameters();
        assertThat(schema.path("type").asText()).isEqualTo("object");
        assertThat(schema.path("properties").path("text").path("type").asText()).isEqualTo("string");
        assertThat(call("files__echo", "{\"text\":\"hi there\"}", CancelToken.none()))
                .isEqualTo(ToolResult.ok("stdio echo: hi there"));
        assertThat(servers.status()).singleElement().satisfies(s -> {
            assertThat(s.state()).isEqualTo(McpServerState.READY);
            assertThat(s.where()).startsWith("stdio: ").endsWith("java");
        });
    }

    @Test
    void aStdioServerGetsOnlyPathHomeAndItsOwnEnvironmentAndItsTokenNeverComesBack() throws Exception {
        // SPEC AG-7, OP-6: the gateway's variables (its keys among them) stay with the gateway
        start(stdio("files", List.of(), Duration.ofSeconds(30)));
        String env = call("files__env", "{}", CancelToken.none()).output();
        assertThat(List.of(env.split(",")))
                .isSubsetOf("PATH", "HOME", "MCP_TOKEN", "MCP_BLOCK_FILE", "MCP_PID_FILE")
                .contains("MCP_TOKEN", "MCP_BLOCK_FILE");
        ToolResult leak = call("files__leak", "{}", CancelToken.none());
        assertThat(leak.output())
                .doesNotContain(TOKEN)
                .doesNotContain("abcdefghijklmnop")
                .contains("[redacted]");
    }

    @Test
    void aToolListChangeIsPickedUpWithoutARestart() throws Exception {
        // SPEC AG-7: notifications/tools/list_changed
        start(stdio("files", List.of(), Duration.ofSeconds(30)));
        assertThat(names()).doesNotContain("files__extra");
        assertThat(call("files__grow", "{}", CancelToken.none()).output()).isEqualTo("grown");
        assertThat(call("files__extra", "{}", CancelToken.none()).output()).isEqualTo("stdio extra ran");
        assertThat(servers.status().getFirst().restarts()).isZero();
    }

    /** What the stdio servers wrote to stderr (the SDK server logs each message it receives there). */
    private static ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> serverStderr() {
        var appender = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        appender.start();
        var logger = (ch.qos.logback.classic.Logger)
                org.slf4j.LoggerFactory.getLogger("dev.clawgate.mcp.internal.StdioProcessTransport");
        logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
        logger.addAppender(appender);
        return appender;
    }

    private static boolean saw(
            ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log, String text) {
        return List.copyOf(log.list).stream()
                .anyMatch(e -> e.getFormattedMessage().contains(text));
    }

    @Test
    void aCallOverItsTimeoutIsCancelledAndSaysSo() throws Exception {
        // SPEC AG-7: calls have a timeout; the server is told with notifications/cancelled
        var stderr = serverStderr();
        start(stdio("files", List.of(), Duration.ofSeconds(1)));
        long t0 = System.nanoTime();
        ToolResult r = call("files__slow", "{\"seconds\":20}", CancelToken.none());
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("files__slow did not answer within 1 s", "mcp.servers.files.timeout");
        await().atMost(Duration.ofSeconds(10)).until(() -> saw(stderr, "notifications/cancelled"));
        // the server is alive and answers the next call
        assertThat(call("files__echo", "{\"text\":\"after\"}", CancelToken.none())
                        .output())
                .isEqualTo("stdio echo: after");
    }

    @Test
    void aRunsCancellationEndsTheCallAtOnce() throws Exception {
        // SPEC AG-2, AG-7: /stop cancels a call in progress, on the server too
        var stderr = serverStderr();
        start(stdio("files", List.of(), Duration.ofSeconds(60)));
        Tool slow = awaitTool("files__slow");
        CancelToken cancel = new CancelToken();
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cancel.cancel("stop");
        });
        long t0 = System.nanoTime();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> slow.execute(JSON.readTree("{\"seconds\":30}"), new ToolContext(dir, null, cancel)))
                .isInstanceOf(CancelledException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> saw(stderr, "the run was stopped"));
    }

    @Test
    void aKilledServerHasItsToolsHiddenUntilItIsStartedAgain() throws Exception {
        // SPEC AG-7: restart with backoff, tools hidden meanwhile
        start(stdio("files", List.of(), Duration.ofSeconds(30)));
        awaitTool("files__echo");
        Files.writeString(dir.resolve("block"), "no start now");
        StdioTestServer.running(dir.resolve("files.pid")).orElseThrow().destroyForcibly();
        await().atMost(Duration.ofSeconds(10)).until(() -> servers.tools().isEmpty());
        // every start fails while blocked: the state says so, and the tools stay hidden
        await().atMost(Duration.ofSeconds(20))
                .until(() -> servers.status().getFirst().restarts() >= 2);
        McpServerStatus down = servers.status().getFirst();
        assertThat(down.state()).isIn(McpServerState.RESTARTING, McpServerState.STARTING);
        assertThat(down.tools()).isEmpty();
        assertThat(servers.tools()).isEmpty();
        Files.delete(dir.resolve("block"));
        assertThat(call("files__echo", "{\"text\":\"back\"}", CancelToken.none())
                        .output())
                .isEqualTo("stdio echo: back");
        assertThat(StdioTestServer.running(dir.resolve("files.pid"))).isPresent();
    }

    @Test
    void aStreamableHttpServerGetsItsHeadersAndComesBackAfterItStops() throws Exception {
        // SPEC AG-7: streamable HTTP with headers for auth; a server that stops is reconnected
        try (HttpTestServer http = HttpTestServer.start()) {
            start(new McpServerSettings(
                    "web",
                    null,
                    List.of(),
                    Map.of(),
                    http.url(),
                    Map.of("Authorization", "Bearer " + TOKEN),
                    List.of("echo", "leak"),
                    Duration.ofSeconds(30),
                    List.of("Bearer " + TOKEN)));
            assertThat(call("web__echo", "{\"text\":\"over http\"}", CancelToken.none())
                            .output())
                    .isEqualTo("http echo: over http");
            assertThat(names()).containsExactly("web__echo", "web__leak");
            assertThat(http.authorizations()).isNotEmpty().allMatch(a -> a.equals("Bearer " + TOKEN));
            assertThat(call("web__leak", "{}", CancelToken.none()).output()).doesNotContain("abcdefghijklmnop");

            http.stop();
            await().atMost(Duration.ofSeconds(15)).until(() -> servers.tools().isEmpty());
            http.restart();
            assertThat(call("web__echo", "{\"text\":\"again\"}", CancelToken.none())
                            .output())
                    .isEqualTo("http echo: again");
        }
    }
}
