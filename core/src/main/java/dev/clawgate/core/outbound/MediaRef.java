package dev.clawgate.core.outbound;

import dev.clawgate.core.internal.render.MediaItem;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A media payload of a reply (SPEC OUT-13): a file inside the workspace or data dir, or a URL.
 *
 * @param location an absolute path already checked against the path rules, or an http(s) URL
 */
public record MediaRef(MediaKind kind, String location) {
    public enum MediaKind {
        IMAGE,
        DOCUMENT,
        VIDEO,
        AUDIO
    }

    public MediaRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
    }

    public boolean remote() {
        return location.startsWith("http://") || location.startsWith("https://");
    }

    /** The payload of a media marker the render package accepted. */
    public static MediaRef of(MediaItem item) {
        MediaKind kind = MediaKind.valueOf(item.kind().name());
        return new MediaRef(
                kind, item.isRemote() ? item.url().toString() : item.path().toString());
    }

    /** This payload as the render package sees it, e.g. for the note a channel without media shows. */
    public MediaItem item() {
        dev.clawgate.core.render.MediaKind k = dev.clawgate.core.render.MediaKind.valueOf(kind.name());
        return remote() ? MediaItem.remote(k, URI.create(location)) : MediaItem.file(k, Path.of(location));
    }
}
