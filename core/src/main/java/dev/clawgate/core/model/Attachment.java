package dev.clawgate.core.model;

import java.util.Objects;

/**
 * A file that came with an inbound message (SPEC MD-1).
 *
 * @param kind image, file or audio
 * @param mimeType e.g. image/png
 * @param location a local path or a URL
 */
public record Attachment(Kind kind, String mimeType, String location) {
    public enum Kind {
        IMAGE,
        FILE,
        AUDIO,
        VIDEO
    }

    public Attachment {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(location, "location");
    }
}
