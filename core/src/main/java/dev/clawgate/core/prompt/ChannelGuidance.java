package dev.clawgate.core.prompt;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How to format replies for each channel: the Channel Capabilities section (SPEC SP-1).
 *
 * @param byChannel text per channel name (lower case)
 * @param fallback  text for a channel not in the table
 */
public record ChannelGuidance(Map<String, String> byChannel, String fallback) {
    private static final String MEDIA_MARKERS = "To send a file, put a marker on its own line: [IMAGE:path], [DOCUMENT:path],"
            + " [VIDEO:path] or [AUDIO:path], with a path inside the workspace; the marker is replaced by the file.";

    public ChannelGuidance {
        byChannel = Map.copyOf(byChannel);
        Objects.requireNonNull(fallback, "fallback");
    }

    /** The built-in table; a deployment can pass its own. */
    public static ChannelGuidance defaults() {
        return new ChannelGuidance(Map.ofEntries(
                Map.entry("telegram", "Telegram renders Markdown: **bold**, _italic_, `code`, ```code blocks``` and [links](url)."
                        + " No tables or headings. Long replies are split into several messages, so keep them short. " + MEDIA_MARKERS),
                Map.entry("terminal", "The terminal shows plain text: no Markdown, no media markers. Keep lines readable."),
                Map.entry("api", "API clients may show plain text or render Markdown: use light Markdown that still reads well"
                        + " as plain text."),
                Map.entry("web", "The web chat renders Markdown, including code blocks and tables. " + MEDIA_MARKERS),
                Map.entry("slack", "Slack uses mrkdwn: *bold*, _italic_, `code`, ```code blocks```, <url|text> links."
                        + " No headings or tables. " + MEDIA_MARKERS),
                Map.entry("discord", "Discord renders Markdown: **bold**, *italic*, `code`, ```code blocks```. No tables."
                        + " Messages over 2000 characters are split. " + MEDIA_MARKERS),
                Map.entry("matrix", "Matrix renders Markdown. " + MEDIA_MARKERS),
                Map.entry("irc", "IRC shows plain text only, one line at a time: no Markdown, no media, keep replies brief."),
                Map.entry("xmpp", "XMPP shows plain text: no Markdown."),
                Map.entry("email", "E-mail replies are plain text; paragraphs and lists are fine, Markdown is not rendered.")),
                "Format replies as plain text with at most light Markdown.");
    }

    public String forChannel(String channel) {
        if (channel == null) return fallback;
        return byChannel.getOrDefault(channel.toLowerCase(Locale.ROOT), fallback);
    }
}
