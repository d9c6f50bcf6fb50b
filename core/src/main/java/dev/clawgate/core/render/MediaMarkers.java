package dev.clawgate.core.render;

import dev.clawgate.core.internal.render.MediaItem;
import dev.clawgate.core.internal.render.MediaReply;
import dev.clawgate.core.internal.render.MediaReply.Rejected;
import dev.clawgate.core.internal.tool.builtin.RefusedException;
import dev.clawgate.core.internal.tool.builtin.WorkspacePaths;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the media markers {@code [IMAGE:p]}, {@code [DOCUMENT:p]}, {@code [VIDEO:p]} and {@code [AUDIO:p]} out of a
 * final reply (SPEC OUT-13). A local path must name an existing file inside the workspace (a relative path is relative
 * to it) or, given as an absolute path, inside the data dir, under the file tools' rules (SPEC AG-5: no {@code ..}, no
 * symbolic link out); {@code http(s)} URLs are kept as URLs. Markers inside fenced code blocks are text, not markers.
 * Refused markers leave the text too (the user never sees protocol text) and are reported with a reason.
 */
public final class MediaMarkers {
    private static final Pattern MARKER =
            Pattern.compile("\\[(IMAGE|DOCUMENT|VIDEO|AUDIO):([^\\]\\n]*)]", Pattern.CASE_INSENSITIVE);
    private static final Pattern URL_SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://.*");

    private MediaMarkers() {}

    /**
     * Extracts the markers of {@code reply}.
     *
     * @param workspace the agent's workspace
     * @param dataDir the gateway's data dir (downloaded attachments, generated files), or null
     */
    public static MediaReply extract(String reply, Path workspace, Path dataDir) {
        if (reply == null || reply.isEmpty()) return new MediaReply("", List.of(), List.of());
        List<MediaItem> media = new ArrayList<>();
        List<Rejected> rejected = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        boolean removedAny = false;
        FenceSyntax fence = null;
        for (String line : reply.split("\n", -1)) {
            if (fence != null) {
                if (fence.closedBy(line)) fence = null;
                kept.add(line);
                continue;
            }
            fence = FenceSyntax.opening(line);
            if (fence != null) {
                kept.add(line);
                continue;
            }
            String stripped = removeMarkers(line, workspace, dataDir, media, rejected);
            if (stripped == null) {
                kept.add(line);
                continue;
            }
            removedAny = true;
            // a line that held only markers goes, and with it a blank line it would leave doubled
            if (stripped.isBlank()) {
                if (!kept.isEmpty() && kept.getLast().isBlank()) kept.removeLast();
            } else kept.add(stripped);
        }
        String text = String.join("\n", kept);
        return new MediaReply(removedAny ? text.strip() : text, media, rejected);
    }

    /** The line without its markers, or null if it has none. */
    private static String removeMarkers(
            String line, Path workspace, Path dataDir, List<MediaItem> media, List<Rejected> rejected) {
        Matcher m = MARKER.matcher(line);
        if (!m.find()) return null;
        StringBuilder out = new StringBuilder();
        int last = 0;
        do {
            out.append(line, last, m.start());
            last = m.end();
            // "see [IMAGE:a] here" becomes "see here", not "see  here"
            if (out.isEmpty() || Character.isWhitespace(out.charAt(out.length() - 1))) {
                while (last < line.length() && (line.charAt(last) == ' ' || line.charAt(last) == '\t')) last++;
            }
            MediaKind kind = MediaKind.valueOf(m.group(1).toUpperCase(Locale.ROOT));
            String target = m.group(2).strip();
            try {
                media.add(item(kind, target, workspace, dataDir));
            } catch (RefusedException e) {
                rejected.add(new Rejected(m.group(), e.getMessage()));
            }
        } while (m.find());
        out.append(line, last, line.length());
        return out.toString().stripTrailing();
    }

    private static MediaItem item(MediaKind kind, String target, Path workspace, Path dataDir) throws RefusedException {
        if (target.isEmpty()) throw new RefusedException("the marker names no file");
        Matcher url = URL_SCHEME.matcher(target);
        if (url.matches()) {
            String scheme = url.group(1).toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https"))
                throw new RefusedException("unsupported URL scheme: " + scheme);
            try {
                URI uri = new URI(target);
                if (uri.getHost() == null) throw new RefusedException("URL has no host: " + target);
                return MediaItem.remote(kind, uri);
            } catch (URISyntaxException e) {
                throw new RefusedException("malformed URL: " + target);
            }
        }
        return MediaItem.file(kind, confined(target, workspace, dataDir));
    }

    private static boolean isAbsolute(String target) {
        try {
            return Path.of(target).isAbsolute();
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** The real path of an existing file inside the workspace or the data dir. */
    private static Path confined(String target, Path workspace, Path dataDir) throws RefusedException {
        Path path;
        try {
            path = WorkspacePaths.resolve(workspace, target);
        } catch (RefusedException outsideWorkspace) {
            // a relative path is relative to the workspace; only an absolute one may name the data dir
            if (dataDir == null || !isAbsolute(target)) throw outsideWorkspace;
            try {
                path = WorkspacePaths.resolve(dataDir, target);
            } catch (RefusedException outsideDataDir) {
                throw new RefusedException(
                        outsideWorkspace.getMessage() + "; and not in the data dir: " + outsideDataDir.getMessage());
            }
        }
        if (!Files.isRegularFile(path)) throw new RefusedException("no such file: " + target);
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw new RefusedException(
                    "cannot read " + target + ": " + e.getClass().getSimpleName());
        }
    }
}
