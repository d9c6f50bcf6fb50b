package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.model.Attachment;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the files shared with a message ({@code files[]}, SPEC OUT-13) into the app's {@link MediaStore} and hands
 * them on as {@link Attachment}s with their local paths: images reach a model with vision as images, like every
 * channel's. Each file is fetched from its {@code url_private_download} (else {@code url_private}) with the bot token,
 * at most {@link #MAX_DOWNLOAD} bytes and {@link #MAX_FILES} files a message. The token goes only to Slack's own hosts
 * ({@code slack.com} and its subdomains, over https) or to {@code api_base}'s host (a proxy, a test double): an event
 * naming any other host gets a note, never the token. A file is stored under its id, so a redelivered event reuses what
 * the first delivery fetched. A file that cannot be fetched does not stop the message: the text says what is missing
 * instead.
 */
final class FileFetcher {
    private static final Logger log = LoggerFactory.getLogger(FileFetcher.class);
    /** The largest file downloaded. */
    static final long MAX_DOWNLOAD = 20L * 1024 * 1024;
    /** Slack shares at most 10 files with one message. */
    static final int MAX_FILES = 10;

    private final SlackBot bot;
    private final MediaStore store;

    FileFetcher(SlackBot bot, MediaStore store) {
        this.bot = bot;
        this.store = store;
    }

    /** Adds the event's files to {@code into}; returns {@code text}, with a note for each file that was not fetched. */
    String fetch(JsonNode event, List<Attachment> into, String text) {
        JsonNode files = event.path("files");
        if (!files.isArray()) return text;
        int seen = 0;
        for (JsonNode f : files) {
            String shown = f.path("name").asText(f.path("title").asText("a file"));
            if (++seen > MAX_FILES) {
                text = note(text, shown + " was not downloaded (more than " + MAX_FILES + " files)");
                continue;
            }
            text = fetchOne(f, shown, into, text);
        }
        return text;
    }

    private String fetchOne(JsonNode f, String shown, List<Attachment> into, String text) {
        String id = f.path("id").asText("");
        String mode = f.path("mode").asText("");
        if (mode.equals("tombstone") || mode.equals("hidden_by_limit") || mode.equals("external")) {
            return note(text, shown + " cannot be downloaded (" + mode + ")");
        }
        if (f.path("size").asLong(0) > MAX_DOWNLOAD) {
            return note(text, shown + " is larger than 20 MB and was not downloaded");
        }
        String url = f.path("url_private_download").asText(f.path("url_private").asText(""));
        URI uri = uri(url);
        if (id.isBlank() || uri == null || !mayCarryToken(uri)) {
            log.warn("slack [{}]: file {} names no Slack URL to download it from", bot.account.id(), safeName(shown));
            return note(text, shown + " could not be downloaded");
        }
        String mime = f.path("mimetype").asText("application/octet-stream");
        String name = safeName(id + "_" + shown);
        try {
            if (!store.reuse(name)) store.write(name, bot.api.download(uri, mime, MAX_DOWNLOAD));
            into.add(new Attachment(
                    kind(mime), mime, store.path(name).toAbsolutePath().toString()));
            return text;
        } catch (IOException e) {
            log.warn("slack [{}]: could not download {}: {}", bot.account.id(), name, bot.api.redact(e.getMessage()));
            return note(text, shown + " could not be downloaded");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return note(text, shown + " could not be downloaded");
        }
    }

    /** Slack's own hosts over https, or the host the Web API is configured at. */
    private boolean mayCarryToken(URI u) {
        String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        boolean slack = "https".equals(u.getScheme()) && (host.equals("slack.com") || host.endsWith(".slack.com"));
        URI api = bot.account.apiBase();
        boolean configured = host.equalsIgnoreCase(api.getHost())
                && u.getPort() == api.getPort()
                && String.valueOf(u.getScheme()).equalsIgnoreCase(api.getScheme());
        return slack || configured;
    }

    private static URI uri(String s) {
        try {
            URI u = new URI(s);
            return u.getHost() == null ? null : u;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    static Attachment.Kind kind(String mime) {
        if (mime.startsWith("image/")) return Attachment.Kind.IMAGE;
        if (mime.startsWith("audio/")) return Attachment.Kind.AUDIO;
        if (mime.startsWith("video/")) return Attachment.Kind.VIDEO;
        return Attachment.Kind.FILE;
    }

    private static String note(String text, String note) {
        return (text.isBlank() ? "" : text + "\n") + "[" + note + "]";
    }

    static String safeName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (cleaned.length() > 120) cleaned = cleaned.substring(0, 120);
        return cleaned.isBlank() || cleaned.startsWith(".") ? "file" + cleaned : cleaned;
    }
}
