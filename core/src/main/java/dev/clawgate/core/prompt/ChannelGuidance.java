package dev.clawgate.core.prompt;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How to format replies for each channel: the Channel Capabilities section (SPEC SP-1). The text comes from the channel
 * itself ({@code Channel.formatGuidance()}): core names no platform.
 *
 * @param byChannel the guidance of a channel by its name (lower case); empty: the fallback applies
 * @param fallback text for a channel that gives none
 */
public record ChannelGuidance(Function<String, Optional<String>> byChannel, String fallback) {
    /** The sentence a channel with {@code media} adds, so every channel describes the markers alike (SPEC OUT-13). */
    public static final String MEDIA_MARKERS =
            "To send a file, put a marker on its own line: [IMAGE:path], [DOCUMENT:path],"
                    + " [VIDEO:path] or [AUDIO:path], with a path inside the workspace; the marker is replaced by the "
                    + "file.";
    /** For a channel that says nothing about its formatting. */
    public static final String FALLBACK = "Format replies as plain text with at most light Markdown.";

    public ChannelGuidance {
        Objects.requireNonNull(byChannel, "byChannel");
        Objects.requireNonNull(fallback, "fallback");
    }

    /** No channel-specific text: every channel gets the fallback. */
    public static ChannelGuidance defaults() {
        return new ChannelGuidance(name -> Optional.empty(), FALLBACK);
    }

    /** A fixed table (lower-case channel names), e.g. for tests or an embedding program. */
    public static ChannelGuidance of(Map<String, String> byChannel) {
        Map<String, String> copy = Map.copyOf(byChannel);
        return new ChannelGuidance(name -> Optional.ofNullable(copy.get(name)), FALLBACK);
    }

    public String forChannel(String channel) {
        if (channel == null) return fallback;
        return byChannel
                .apply(channel.toLowerCase(Locale.ROOT))
                .filter(s -> !s.isBlank())
                .orElse(fallback);
    }
}
