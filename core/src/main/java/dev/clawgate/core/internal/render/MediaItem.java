package dev.clawgate.core.internal.render;

import dev.clawgate.core.render.MediaKind;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One media payload taken from a reply's markers (SPEC OUT-13): a local file confined to the workspace or the data dir,
 * or an {@code http(s)} URL (whether it may be fetched is decided where it is fetched, SPEC AG-4). Exactly one of
 * {@code path} and {@code url} is set.
 */
public record MediaItem(MediaKind kind, Path path, URI url) {
    public MediaItem {
        Objects.requireNonNull(kind, "kind");
        if ((path == null) == (url == null))
            throw new IllegalArgumentException("exactly one of path and url must be set");
    }

    public static MediaItem file(MediaKind kind, Path path) {
        return new MediaItem(kind, path, null);
    }

    public static MediaItem remote(MediaKind kind, URI url) {
        return new MediaItem(kind, null, url);
    }

    public boolean isRemote() {
        return url != null;
    }

    /** A short name for notes and logs: the file name, or the last segment of the URL's path. */
    public String displayName() {
        if (path != null)
            return path.getFileName() == null
                    ? path.toString()
                    : path.getFileName().toString();
        String p = url.getPath();
        if (p == null || p.isEmpty() || p.equals("/")) return url.getHost();
        String trimmed = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }
}
