package dev.clawgate.mcp.testserver;

import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real MCP server process over stdio, built on the SDK's server side (SPEC AG-7). When the file named by
 * {@code MCP_BLOCK_FILE} exists it exits at once, as a server that cannot start.
 */
public final class StdioTestServer {
    private StdioTestServer() {}

    public static void main(String[] args) throws Exception {
        // stdout carries the protocol: every log line goes to stderr
        PrintStream protocol = System.out;
        System.setOut(System.err);
        String block = System.getenv("MCP_BLOCK_FILE");
        if (block != null && Files.exists(Path.of(block))) System.exit(2);
        String pidFile = System.getenv("MCP_PID_FILE");
        if (pidFile != null)
            Files.writeString(
                    Path.of(pidFile), Long.toString(ProcessHandle.current().pid()));
        AtomicReference<McpSyncServer> self = new AtomicReference<>();
        var json = new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper());
        var transport = new StdioServerTransportProvider(json, System.in, protocol);
        self.set(McpServer.sync(transport)
                .serverInfo("clawgate-test-stdio", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(TestTools.all("stdio", self))
                .build());
        new CountDownLatch(1).await();
    }

    /** The command line that runs this server with the test JVM and class path; {@code marker} finds the process. */
    public static List<String> commandLine(String marker) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Dclawgate.mcp.test=" + marker);
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StdioTestServer.class.getName());
        return cmd;
    }

    /** The running server that wrote {@code pidFile} (its env {@code MCP_PID_FILE}), if it still runs. */
    public static java.util.Optional<ProcessHandle> running(Path pidFile) throws java.io.IOException {
        if (!Files.exists(pidFile)) return java.util.Optional.empty();
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                .filter(ProcessHandle::isAlive);
    }
}
