package dev.clawgate.core.multimodal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * Fetches remote images for {@link ImageInliner} (SPEC AG-4) from public addresses only: every
 * address the host name resolves to must be public ({@link PublicAddresses}), redirects are not followed (a redirect could point inside),
 * and the body is cut at the byte limit.
 */
public final class PublicImageFetcher implements ImageInliner.RemoteImages {
    private final HttpClient http;
    private final Function<String, InetAddress[]> resolver;
    private final Duration timeout;

    public PublicImageFetcher(HttpClient http, Function<String, InetAddress[]> resolver, Duration timeout) {
        this.http = http;
        this.resolver = resolver;
        this.timeout = timeout;
    }

    /** One fetcher for the process: its HTTP client is shared by every turn. */
    public static PublicImageFetcher shared() {
        return Shared.INSTANCE;
    }

    private static final class Shared {
        static final PublicImageFetcher INSTANCE = create();
    }

    public static PublicImageFetcher create() {
        return new PublicImageFetcher(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5)).build(), PublicImageFetcher::resolve, Duration.ofSeconds(15));
    }

    /** Every address of {@code host}, as the system resolver gives them. */
    public static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("unknown host " + host);
        }
    }

    /** True when every address is public: see {@link PublicAddresses} for what is not (SPEC AG-4). */
    public static boolean publicOnly(InetAddress[] addresses) {
        return PublicAddresses.allPublic(addresses);
    }

    @Override
    public ImageInliner.Image fetch(URI url, long maxBytes) throws IOException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) throw new IOException("only http(s) images are fetched");
        if (url.getHost() == null) throw new IOException("no host in the image URL");
        if (!publicOnly(resolver.apply(url.getHost()))) throw new IOException("refused: " + url.getHost() + " is not a public address");
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching the image", e);
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) throw new IOException("the image URL answered HTTP " + response.statusCode());
            String type = response.headers().firstValue("Content-Type").orElse("").split(";")[0].strip().toLowerCase(Locale.ROOT);
            if (!type.startsWith("image/")) throw new IOException("not an image (" + (type.isEmpty() ? "no type" : type) + ")");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[16 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                if (out.size() + n > maxBytes) throw new IOException("larger than " + maxBytes + " bytes");
                out.write(buf, 0, n);
            }
            return new ImageInliner.Image(type, out.toByteArray());
        }
    }
}
