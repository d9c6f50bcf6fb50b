package dev.clawgate.core.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.multimodal.PublicImageFetcher;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code web_fetch} (SPEC AG-5): the text of a web page, from public addresses only. Every hop is
 * checked: the host's addresses must all be public (no loopback, private, link-local or metadata
 * address), and redirects are followed by hand, at most {@value #MAX_REDIRECTS}, each checked the
 * same way, so a public URL cannot bounce the request inside. HTML is reduced to its text.
 */
public final class WebFetchTool extends BuiltinTool {
    public static final String NAME = "web_fetch";
    static final int MAX_REDIRECTS = 3;
    static final long MAX_BYTES = 2L * 1024 * 1024;
    private static final Pattern SCRIPTS = Pattern.compile("(?is)<(script|style|noscript)[^>]*>.*?</\\1>");
    private static final Pattern TAGS = Pattern.compile("(?s)<[^>]+>");
    private static final Pattern BLOCKS = Pattern.compile("(?i)</?(p|div|br|li|h[1-6]|tr|section|article)[^>]*>");
    private static final Pattern CHARSET = Pattern.compile("(?i)charset=\"?([\\w.:-]+)");

    private final int maxResultChars;
    private final HttpClient http;
    private final Function<String, InetAddress[]> resolver;

    public WebFetchTool(int maxResultChars, HttpClient http, Function<String, InetAddress[]> resolver) {
        super(NAME, "Fetch a public web page (http or https) and return its text.",
                ArgumentSchema.object()
                        .string("url", "The http(s) address of the page", true));
        if (maxResultChars < 1) throw new IllegalArgumentException("maxResultChars must be positive");
        this.maxResultChars = maxResultChars;
        this.http = http;
        this.resolver = resolver;
    }

    public WebFetchTool(int maxResultChars) {
        this(maxResultChars, HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build(),
                PublicImageFetcher::resolve);
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        URI url;
        try {
            url = URI.create(ToolArguments.of(arguments).requiredString("url").strip());
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
        try {
            for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
                context.cancel().throwIfCancelled();
                check(url);
                HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20))
                        .header("User-Agent", "clawgate").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
                int status = r.statusCode();
                if (status >= 300 && status < 400 && r.headers().firstValue("Location").isPresent()) {
                    r.body().close();
                    url = url.resolve(r.headers().firstValue("Location").get());
                    continue;
                }
                try (InputStream in = r.body()) {
                    if (status != 200) return ToolResult.error(url.getHost() + " answered HTTP " + status);
                    String type = r.headers().firstValue("Content-Type").orElse("text/plain");
                    String text = decode(read(in), type);
                    if (type.toLowerCase(Locale.ROOT).contains("html")) text = htmlText(text);
                    return ToolResult.ok(text.length() > maxResultChars ? text.substring(0, maxResultChars) + "\n[… cut at "
                            + maxResultChars + " characters]" : text);
                }
            }
            return ToolResult.error("more than " + MAX_REDIRECTS + " redirects");
        } catch (IOException e) {
            return ToolResult.error(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("interrupted");
        }
    }

    private void check(URI url) throws IOException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) throw new IOException("only http and https addresses are fetched");
        if (url.getHost() == null) throw new IOException("the address has no host");
        InetAddress[] addresses;
        try {
            addresses = resolver.apply(url.getHost());
        } catch (IllegalArgumentException unknown) {
            throw new IOException(unknown.getMessage());
        }
        if (!PublicImageFetcher.publicOnly(addresses)) {
            throw new IOException("refused: " + url.getHost() + " is not a public address");
        }
    }

    private static byte[] read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16 * 1024];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, (int) Math.min(n, MAX_BYTES - out.size()));
            if (out.size() >= MAX_BYTES) break;
        }
        return out.toByteArray();
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
        s = s.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
        s = s.replaceAll("[ \\t\\x0B\\f\\r]+", " ").replaceAll(" *\\n *", "\n").replaceAll("\\n{3,}", "\n\n");
        return s.strip();
    }
}
