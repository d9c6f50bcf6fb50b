package dev.clawgate.mcp.testserver;

import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real MCP server over streamable HTTP on a loopback port (SPEC AG-7): the SDK's servlet transport on Jetty, at
 * {@code /mcp}. It records the {@code Authorization} header of each request, can be stopped and started again on the
 * same port.
 */
public final class HttpTestServer implements AutoCloseable {
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private Server jetty;
    private McpSyncServer mcp;
    private int port;

    public static HttpTestServer start() throws Exception {
        HttpTestServer s = new HttpTestServer();
        s.startOn(0);
        return s;
    }

    private void startOn(int wanted) throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper()))
                .mcpEndpoint("/mcp")
                .build();
        AtomicReference<McpSyncServer> self = new AtomicReference<>();
        mcp = McpServer.sync(transport)
                .serverInfo("clawgate-test-http", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(TestTools.all("http", self))
                .build();
        self.set(mcp);
        jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(wanted);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(transport), "/*");
        context.addFilter(
                (request, response, chain) -> {
                    String auth = ((jakarta.servlet.http.HttpServletRequest) request).getHeader("Authorization");
                    authorizations.add(auth == null ? "" : auth);
                    chain.doFilter(request, response);
                },
                "/*",
                java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
        jetty.setHandler(context);
        jetty.start();
        port = connector.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    /** The Authorization header of every request so far ("" where there was none). */
    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    /** Stops answering: the port is closed. */
    public void stop() throws Exception {
        mcp.close();
        jetty.stop();
    }

    /** Answers again, on the same port, as a new server process would. */
    public void restart() throws Exception {
        startOn(port);
    }

    @Override
    public void close() throws Exception {
        if (jetty.isRunning()) stop();
    }
}
