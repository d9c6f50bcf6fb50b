package dev.clawgate.core.render;

import java.util.Locale;

/** The kinds of media a reply can carry through a marker such as {@code [IMAGE:chart.png]} (SPEC OUT-13). */
public enum MediaKind {
    IMAGE,
    DOCUMENT,
    VIDEO,
    AUDIO;

    /** The word used in notes for channels without media: "image", "document", ... */
    public String noun() {
        return name().toLowerCase(Locale.ROOT);
    }
}
