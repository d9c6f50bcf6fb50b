package dev.clawgate.core.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.multimodal.PublicAddresses;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.multimodal.ScriptedHttp;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

// SPEC AG-5 web_fetch: public addresses only, every redirect checked, HTML reduced to text
class WebFetchToolTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE = "http://public.example";
    private final ScriptedHttp http = new ScriptedHttp()
            .answer(
                    BASE + "/page",
                    200,
                    "text/html; charset=utf-8",
                    "<html><head><style>p{}</style><script>var x=1;</script></head>"
                            + "<body><h1>Title</h1><p>Caf&eacute; &amp; more</p><div>second line</div></body></html>")
            .redirect(BASE + "/inside", "http://internal.example/secret");

    /** public.example resolves to a public address; anything else to loopback. */
    private WebFetchTool tool(int max) {
        return new WebFetchTool(
                max,
                new PublicWeb(
                        http,
                        host -> List.of(
                                host.equals("public.example")
                                        ? address(93, 184, 216, 34)
                                        : InetAddress.getLoopbackAddress()),
                        PublicAddresses::isPublic));
    }

    static InetAddress address(int... b) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) b[0], (byte) b[1], (byte) b[2], (byte) b[3]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ToolResult run(WebFetchTool tool, String url) throws Exception {
        return tool.execute(
                JSON.createObjectNode().put("url", url),
                new ToolContext(
                        Path.of("."),
                        SessionKey.of(dev.clawgate.core.model.InboundMessage.direct("test", null, "alice", "x")),
                        CancelToken.none()));
    }

    @Test
    void aPublicPageComesBackAsItsText() throws Exception {
        ToolResult r = run(tool(10_000), BASE + "/page");
        assertThat(r.error()).as(r.output()).isFalse();
        assertThat(r.output())
                .contains("Title")
                .contains("& more")
                .contains("second line")
                .doesNotContain("<")
                .doesNotContain("var x");
        assertThat(run(tool(5), BASE + "/page").output()).contains("[… cut at 5 characters]");
        assertThat(http.calls()).allSatisfy(c -> assertThat(c.addresses()).containsExactly(address(93, 184, 216, 34)));
    }

    @Test
    void loopbackPrivateAndRedirectsInsideAreRefused() throws Exception {
        assertThat(run(tool(1000), "http://127.0.0.1:8080/page").output()).contains("not a public address");
        assertThat(run(tool(1000), BASE + "/inside").output())
                .contains("refused: internal.example is not a public address");
        assertThat(run(tool(1000), "file:///etc/passwd").output()).contains("only http and https");
        // only the public hop was ever connected to
        assertThat(http.calls()).extracting(c -> c.url().toString()).containsExactly(BASE + "/inside");
    }
}
