package dev.clawgate.core.internal.multimodal;

import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Fetches remote images for {@link ImageInliner} (SPEC AG-4) through {@link PublicWeb}: public addresses only,
 * connected to as checked, every redirect checked; the body is refused past the byte limit.
 */
public final class PublicImageFetcher implements ImageInliner.RemoteImages {
    private final PublicWeb web;
    private final Duration timeout;

    public PublicImageFetcher(PublicWeb web, Duration timeout) {
        this.web = web;
        this.timeout = timeout;
    }

    public PublicImageFetcher(PublicWeb web) {
        this(web, Duration.ofSeconds(15));
    }

    @Override
    public ImageInliner.Image fetch(URI url, long maxBytes) throws IOException {
        PublicWeb.Page page;
        try {
            page = web.get(url, timeout, maxBytes, CancelToken.none());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching the image", e);
        }
        PinnedHttp.Response response = page.response();
        if (response.status() != 200) throw new IOException("the image URL answered HTTP " + response.status());
        String type = response.contentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!type.startsWith("image/")) {
            throw new IOException("not an image (" + (type.isEmpty() ? "no type" : type) + ")");
        }
        if (response.cut()) throw new IOException("larger than " + maxBytes + " bytes");
        return new ImageInliner.Image(type, response.body());
    }
}
