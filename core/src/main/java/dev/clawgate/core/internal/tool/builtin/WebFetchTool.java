package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.internal.multimodal.PinnedHttp;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code web_fetch} (SPEC AG-5): the text of a web page, from public addresses only, through {@link PublicWeb}: every
 * hop's host is resolved once, every answer must be public (no loopback, private, link-local or metadata address), the
 * connection goes to exactly the checked address, and redirects are followed by hand, each checked the same way, so
 * neither a redirect nor a second DNS answer can bounce the request inside. HTML is reduced to its text. The page is
 * data for the model: nothing in it is run.
 */
final class WebFetchTool extends BuiltinTool {
    public static final String NAME = "web_fetch";
    static final long MAX_BYTES = 2L * 1024 * 1024;
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern SCRIPTS = Pattern.compile("(?is)<(script|style|noscript)[^>]*>.*?</\\1>");
    private static final Pattern TAGS = Pattern.compile("(?s)<[^>]+>");
    private static final Pattern BLOCKS = Pattern.compile("(?i)</?(p|div|br|li|h[1-6]|tr|section|article)[^>]*>");
    private static final Pattern CHARSET = Pattern.compile("(?i)charset=\"?([\\w.:-]+)");

    private final int maxResultChars;
    private final PublicWeb web;

    public WebFetchTool(int maxResultChars, PublicWeb web) {
        super(
                NAME,
                "Fetch a public web page (http or https) and return its text.",
                ArgumentSchema.object().string("url", "The http(s) address of the page", true));
        if (maxResultChars < 1) throw new IllegalArgumentException("maxResultChars must be positive");
        this.maxResultChars = maxResultChars;
        this.web = web;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        URI url;
        try {
            url = URI.create(ToolArguments.of(arguments).requiredString("url").strip());
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
        PublicWeb.Page page;
        try {
            page = web.get(url, TIMEOUT, MAX_BYTES, context.cancel());
        } catch (IOException e) {
            return ToolResult.error(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("interrupted");
        }
        PinnedHttp.Response r = page.response();
        if (r.status() != 200) return ToolResult.error(page.url().getHost() + " answered HTTP " + r.status());
        String type = r.contentType().isEmpty() ? "text/plain" : r.contentType();
        String text = decode(r.body(), type);
        if (type.toLowerCase(Locale.ROOT).contains("html")) text = htmlText(text);
        return ToolResult.ok(
                text.length() > maxResultChars
                        ? text.substring(0, maxResultChars) + "\n[… cut at " + maxResultChars + " characters]"
                        : text);
    }

    private static String decode(byte[] bytes, String contentType) {
        Matcher m = CHARSET.matcher(contentType);
        Charset cs = StandardCharsets.UTF_8;
        if (m.find()) {
            try {
                cs = Charset.forName(m.group(1));
            } catch (IllegalArgumentException unknown) {
                cs = StandardCharsets.UTF_8;
            }
        }
        return new String(bytes, cs);
    }

    /** The readable text of an HTML page: scripts and styles gone, block tags as line breaks, entities decoded. */
    static String htmlText(String html) {
        String s = SCRIPTS.matcher(html).replaceAll(" ");
        s = BLOCKS.matcher(s).replaceAll("\n");
        s = TAGS.matcher(s).replaceAll("");
        s = s.replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
        s = s.replaceAll("[ \\t\\x0B\\f\\r]+", " ").replaceAll(" *\\n *", "\n").replaceAll("\\n{3,}", "\n\n");
        return s.strip();
    }
}
