package dev.clawgate.core.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

// SPEC AG-5 web_fetch: public addresses only, every redirect checked, HTML reduced to text
class WebFetchToolTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        serve("/page", "text/html; charset=utf-8", "<html><head><style>p{}</style><script>var x=1;</script></head>"
                + "<body><h1>Title</h1><p>Caf&eacute; &amp; more</p><div>second line</div></body></html>");
        server.createContext("/inside", x -> {
            x.getResponseHeaders().add("Location", "http://internal.example/secret");
            x.sendResponseHeaders(302, -1);
            x.close();
        });
        server.start();
        base = "http://public.example:" + server.getAddress().getPort();
    }

    private void serve(String path, String type, String body) {
        server.createContext(path, x -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", type);
            x.sendResponseHeaders(200, b.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(b);
            }
        });
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** public.example resolves to a public address but is served here; anything else resolves to loopback. */
    private WebFetchTool tool(int max) {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .proxy(new java.net.ProxySelector() {
                    public java.util.List<java.net.Proxy> select(java.net.URI uri) {
                        return java.util.List.of(new java.net.Proxy(java.net.Proxy.Type.HTTP, server.getAddress()));
                    }

                    public void connectFailed(java.net.URI uri, java.net.SocketAddress sa, java.io.IOException ioe) {
                    }
                }).build();
        return new WebFetchTool(max, http, host -> {
            try {
                return Set.of("public.example").contains(host) ? new InetAddress[] {InetAddress.getByAddress(new byte[] {93, (byte) 184, (byte) 216, 34})}
                        : new InetAddress[] {InetAddress.getLoopbackAddress()};
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static ToolResult run(WebFetchTool tool, String url) throws Exception {
        return tool.execute(JSON.createObjectNode().put("url", url), new ToolContext(Path.of("."), SessionKey.of(
                dev.clawgate.core.model.InboundMessage.direct("test", null, "alice", "x")), CancelToken.none()));
    }

    @Test
    void aPublicPageComesBackAsItsText() throws Exception {
        ToolResult r = run(tool(10_000), base + "/page");
        assertThat(r.error()).as(r.output()).isFalse();
        assertThat(r.output()).contains("Title").contains("& more").contains("second line").doesNotContain("<").doesNotContain("var x");
        assertThat(run(tool(5), base + "/page").output()).contains("[… cut at 5 characters]");
    }

    @Test
    void loopbackPrivateAndRedirectsInsideAreRefused() throws Exception {
        assertThat(run(tool(1000), "http://127.0.0.1:" + server.getAddress().getPort() + "/page").output())
                .contains("not a public address");
        assertThat(run(tool(1000), base + "/inside").output()).contains("refused: internal.example is not a public address");
        assertThat(run(tool(1000), "file:///etc/passwd").output()).contains("only http and https");
    }
}
