package dev.clawgate.core.internal.render;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A final reply with its media markers taken out (SPEC OUT-13).
 *
 * @param text the reply without markers, whitespace tidied (possibly empty)
 * @param media the accepted media, in marker order
 * @param rejected markers that were removed but named no acceptable file, for the caller to log
 */
public record MediaReply(String text, List<MediaItem> media, List<Rejected> rejected) {

    /** A marker whose path was refused, and why. */
    public record Rejected(String marker, String reason) {}

    public MediaReply {
        media = List.copyOf(media);
        rejected = List.copyOf(rejected);
    }

    /**
     * The text for a channel that cannot send media: the reply followed by a short note per media item, e.g.
     * {@code [image omitted: chart.png]}.
     */
    public String textWithoutMedia() {
        if (media.isEmpty()) return text;
        String notes = media.stream()
                .map(m -> "[" + m.kind().noun() + " omitted: " + m.displayName() + "]")
                .collect(Collectors.joining("\n"));
        return text.isEmpty() ? notes : text + "\n\n" + notes;
    }
}
