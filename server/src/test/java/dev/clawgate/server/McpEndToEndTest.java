package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.McpServerSettings;
import dev.clawgate.core.config.McpSettings;
import dev.clawgate.mcp.McpServerState;
import dev.clawgate.mcp.McpServerStatus;
import dev.clawgate.mcp.testserver.HttpTestServer;
import dev.clawgate.mcp.testserver.StdioTestServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MCP servers' tools through the whole gateway (SPEC AG-7): a real MCP server process over stdio and a real
 * streamable-HTTP MCP server on a loopback port (both the official SDK's server side), the model scripted on the fake
 * OpenAI server, the chat on the fake Bot API. What the model was offered and what came back from each tool is read
 * from the model's own requests.
 */
class McpEndToEndTest extends TelegramGatewayFixture {
    private static final String TOKEN = "mcp-token-4f1e2d3c2b1a";
    private final String marker = UUID.randomUUID().toString();
    private HttpTestServer http;
    private Path block;

    @BeforeEach
    void startHttpServer() throws Exception {
        http = HttpTestServer.start();
        block = dir.resolve("mcp-block");
    }

    @AfterEach
    void stopHttpServer() throws Exception {
        closeGateway();
        http.close();
    }

    private McpServerSettings stdio(String name, Duration timeout) {
        List<String> cmd = StdioTestServer.commandLine(marker);
        return new McpServerSettings(
                name,
                cmd.getFirst(),
                cmd.subList(1, cmd.size()),
                Map.of(
                        "MCP_TOKEN",
                        TOKEN,
                        "MCP_BLOCK_FILE",
                        block.toString(),
                        "MCP_PID_FILE",
                        dir.resolve(name + ".pid").toString()),
                null,
                Map.of(),
                List.of("echo", "leak", "big", "slow", "grow", "extra"),
                timeout,
                List.of(TOKEN));
    }

    private ClawgateConfig withServers(McpServerSettings... servers) {
        Map<String, McpServerSettings> m = new LinkedHashMap<>();
        for (McpServerSettings s : servers) m.put(s.name(), s);
        return config(Map.of()).withMcp(new McpSettings(m));
    }

    private McpServerSettings web() {
        return new McpServerSettings(
                "web",
                null,
                List.of(),
                Map.of(),
                http.url(),
                Map.of("Authorization", "Bearer " + TOKEN),
                List.of("echo"),
                Duration.ofSeconds(30),
                List.of("Bearer " + TOKEN));
    }

    private void awaitState(String server, McpServerState state) {
        await().atMost(Duration.ofSeconds(40))
                .until(() ->
                        gateway.mcpServers().stream().anyMatch(s -> s.name().equals(server) && s.state() == state));
    }

    private static List<String> toolNames(RecordedRequest r) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : r.body().path("tools"))
            out.add(t.path("function").path("name").asText());
        return out;
    }

    /** The text of the tool results the model was given in {@code r}. */
    private static String toolResults(RecordedRequest r) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode m : r.body().path("messages")) {
            if (m.path("role").asText().equals("tool"))
                sb.append(m.path("content").asText()).append('\n');
        }
        return sb.toString();
    }

    private void ask(String text, int sentBefore) {
        tg.sendText(dm, alice, text);
        awaitSent(dm, sentBefore + 1);
    }

    @Test
    void theModelCallsAStdioAndAnHttpServersToolsAndTheResultsComeBackInItsNextRequest() throws Exception {
        // SPEC AG-7: <server>__<tool> with the server's schema, the allowlist, stdio and streamable HTTP with headers
        model.enqueue(
                Reply.toolCalls(Reply.call("files__echo", "{\"text\":\"from stdio\"}")),
                Reply.toolCalls(Reply.call("web__echo", "{\"text\":\"from http\"}")),
                Reply.text("both tools answered"));
        start(withServers(stdio("files", Duration.ofSeconds(30)), web()));
        awaitState("files", McpServerState.READY);
        awaitState("web", McpServerState.READY);

        ask("use both servers", 0);
        assertThat(tg.sentTo(dm).getLast().text()).contains("both tools answered");
        List<RecordedRequest> requests = model.chatRequests();
        assertThat(requests).hasSize(3);
        List<String> offered = toolNames(requests.getFirst());
        assertThat(offered)
                .contains("files__echo", "files__leak", "files__slow", "web__echo", "file_read")
                .doesNotContain("files__hidden", "files__env", "web__leak");
        JsonNode echo = requests.getFirst().body().path("tools").findParents("name").stream()
                .filter(n -> n.path("name").asText().equals("files__echo"))
                .findFirst()
                .orElseThrow();
        assertThat(echo.path("parameters")
                        .path("properties")
                        .path("text")
                        .path("type")
                        .asText())
                .isEqualTo("string");
        assertThat(toolResults(requests.get(1))).contains("stdio echo: from stdio");
        assertThat(toolResults(requests.get(2))).contains("http echo: from http");
        assertThat(http.authorizations()).isNotEmpty().allMatch(a -> a.equals("Bearer " + TOKEN));
    }

    @Test
    void aServerKilledMidSessionHasItsToolsHiddenThenComesBackAndAnswers() throws Exception {
        // SPEC AG-7: a dead server is restarted with backoff, its tools hidden meanwhile
        model.enqueue(
                Reply.toolCalls(Reply.call("files__echo", "{\"text\":\"first\"}")),
                Reply.text("one"),
                Reply.text("two, without the server"),
                Reply.toolCalls(Reply.call("files__echo", "{\"text\":\"again\"}")),
                Reply.text("three"));
        start(withServers(stdio("files", Duration.ofSeconds(30))));
        awaitState("files", McpServerState.READY);
        ask("first", 0);
        assertThat(toolResults(model.chatRequests().get(1))).contains("stdio echo: first");

        // killed, and unable to start while the block file is there: it stays down, deterministically
        Files.writeString(block, "down");
        StdioTestServer.running(dir.resolve("files.pid")).orElseThrow().destroyForcibly();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.mcpServers().getFirst().restarts() >= 2);
        McpServerStatus down = gateway.mcpServers().getFirst();
        assertThat(down.state()).isNotEqualTo(McpServerState.READY);
        assertThat(down.problem()).contains("exited");
        ask("second", 1);
        assertThat(toolNames(model.chatRequests().get(2)))
                .contains("file_read")
                .noneMatch(n -> n.startsWith("files__"));

        Files.delete(block);
        awaitState("files", McpServerState.READY);
        ask("third", 2);
        assertThat(toolNames(model.chatRequests().get(3))).contains("files__echo");
        assertThat(toolResults(model.chatRequests().get(4))).contains("stdio echo: again");
        assertThat(tg.sentTo(dm).getLast().text()).contains("three");
    }

    @Test
    void aToolListChangeIsOfferedToTheModelInTheNextTurn() throws Exception {
        // SPEC AG-7: notifications/tools/list_changed refreshes the tools
        model.enqueue(
                Reply.toolCalls(Reply.call("files__grow", "{}")),
                Reply.text("grown"),
                Reply.toolCalls(Reply.call("files__extra", "{}")),
                Reply.text("extra done"));
        start(withServers(stdio("files", Duration.ofSeconds(30))));
        awaitState("files", McpServerState.READY);
        ask("grow", 0);
        assertThat(toolNames(model.chatRequests().getFirst())).doesNotContain("files__extra");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> gateway.mcpServers().getFirst().tools().contains("files__extra"));
        ask("use the new tool", 1);
        assertThat(toolNames(model.chatRequests().get(2))).contains("files__extra");
        assertThat(toolResults(model.chatRequests().get(3))).contains("stdio extra ran");
    }

    @Test
    void resultsAreCutAndScrubbedLikeBuiltInToolsAndASlowCallTimesOut() throws Exception {
        // SPEC AG-7, AG-3 (tools.max_result_chars), OP-6 (no credential reaches the model)
        model.enqueue(
                Reply.toolCalls(
                        Reply.call("files__big", "{\"n\":20000}"),
                        Reply.call("files__leak", "{}"),
                        Reply.call("quick__slow", "{\"seconds\":30}")),
                Reply.text("done"));
        start(withServers(stdio("files", Duration.ofSeconds(30)), stdio("quick", Duration.ofSeconds(1))));
        awaitState("files", McpServerState.READY);
        awaitState("quick", McpServerState.READY);
        long t0 = System.nanoTime();
        ask("big, leak and slow", 0);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(25));
        String results = toolResults(model.chatRequests().get(1));
        assertThat(results)
                .contains("[output cut: 8000 of 20000 characters shown (tools.max_result_chars)]")
                .contains("my token is [redacted]")
                .doesNotContain(TOKEN)
                .contains("quick__slow did not answer within 1 s");
        assertThat(model.chatRequests().get(1).bodyText()).doesNotContain(TOKEN);
    }

    private static String toml(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Test
    void theMcpTableLoadsAndDoctorListsEachServerItsStateAndItsTools() throws Exception {
        // SPEC AG-7, OP-4: [mcp.servers.<name>] in clawgate.toml; doctor starts each server once and lists its tools
        List<String> cmd = StdioTestServer.commandLine(marker);
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, """
                [gateway]
                data_dir = "state"
                [providers.local]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-key-0000"
                model = "m"
                [mcp.servers.files]
                command = %s
                args = [%s]
                tools = ["echo", "big"]
                timeout = "30s"
                [mcp.servers.files.env]
                MCP_TOKEN = "${CLAWGATE_TEST_MCP_TOKEN}"
                [mcp.servers.web]
                url = "%s"
                tools = ["echo"]
                [mcp.servers.web.headers]
                Authorization = "Bearer ${CLAWGATE_TEST_MCP_TOKEN}"
                [mcp.servers.gone]
                url = "http://127.0.0.1:1/mcp"
                """.formatted(
                        model.baseUrl(),
                        toml(cmd.getFirst()),
                        String.join(
                                ", ",
                                cmd.subList(1, cmd.size()).stream()
                                        .map(McpEndToEndTest::toml)
                                        .toList()),
                        http.url()));
        ClawgateConfig loaded =
                new dev.clawgate.server.config.ConfigLoader().load(file, Map.of("CLAWGATE_TEST_MCP_TOKEN", TOKEN));
        McpServerSettings files = loaded.mcp().servers().get("files");
        assertThat(files.command()).isEqualTo(cmd.getFirst());
        assertThat(files.args()).isEqualTo(cmd.subList(1, cmd.size()));
        assertThat(files.env()).isEqualTo(Map.of("MCP_TOKEN", TOKEN));
        assertThat(files.tools()).containsExactly("echo", "big");
        assertThat(files.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(files.secrets()).contains(TOKEN);
        assertThat(files.toString()).doesNotContain(TOKEN);
        McpServerSettings webServer = loaded.mcp().servers().get("web");
        assertThat(webServer.headers()).isEqualTo(Map.of("Authorization", "Bearer " + TOKEN));
        assertThat(webServer.timeout()).isEqualTo(McpServerSettings.DEFAULT_TIMEOUT);

        String bad = Files.readString(file).replace("tools = [\"echo\"]\n", "tool = [\"echo\"]\n");
        Files.writeString(dir.resolve("bad.toml"), bad);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new dev.clawgate.server.config.ConfigLoader()
                        .load(dir.resolve("bad.toml"), Map.of("CLAWGATE_TEST_MCP_TOKEN", TOKEN)))
                .hasMessageContaining("mcp.servers.web.tool");

        // doctor reads the file with this process's environment, where the variable is not set
        Path doctorFile = dir.resolve("doctor.toml");
        Files.writeString(
                doctorFile,
                Files.readString(file)
                        .replace("${CLAWGATE_TEST_MCP_TOKEN}", TOKEN)
                        .replace(
                                "[mcp.servers.files.env]\n",
                                "[mcp.servers.files.env]\nMCP_PID_FILE = "
                                        + toml(dir.resolve("doctor.pid").toString()) + "\n"));
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        String report;
        try {
            System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
            dev.clawgate.server.cli.Main.execute("doctor", "--config", doctorFile.toString());
        } finally {
            System.setOut(out);
            report = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(report)
                .contains("ok       mcp server 'files' (stdio: " + cmd.getFirst()
                        + ") ready, 2 tools: files__echo, files__big")
                .contains("ok       mcp server 'web' (http: " + http.url() + ") ready, 1 tool: web__echo")
                .contains("PROBLEM  mcp server 'gone' (http: http://127.0.0.1:1/mcp) is not ready: did not start")
                .contains("fix: check mcp.servers.gone")
                .doesNotContain(TOKEN);
        // doctor stops the server it started
        assertThat(dir.resolve("doctor.pid")).as("doctor started the server").exists();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> StdioTestServer.running(dir.resolve("doctor.pid")).isEmpty());
    }

    @Test
    void stopEndsARunWaitingOnAnMcpTool() throws Exception {
        // SPEC AG-2, AG-7, DI-5: /stop cancels the call in progress
        model.enqueue(
                Reply.toolCalls(Reply.call("files__slow", "{\"seconds\":60}")),
                Reply.text("this answer must never be asked for"));
        start(withServers(stdio("files", Duration.ofSeconds(120))));
        awaitState("files", McpServerState.READY);
        tg.sendText(dm, alice, "sleep");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> gateway.dispatcher().activeRuns() == 1
                        && model.chatRequests().size() == 1);
        tg.sendText(dm, alice, "/stop");
        await().atMost(Duration.ofSeconds(10)).until(() -> gateway.dispatcher().activeRuns() == 0);
        assertThat(model.chatRequests()).hasSize(1);
    }
}
