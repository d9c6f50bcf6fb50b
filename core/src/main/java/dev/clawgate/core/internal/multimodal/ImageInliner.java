package dev.clawgate.core.internal.multimodal;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes {@code [IMAGE:...]} markers in user messages something a vision model can see (SPEC AG-4): a local file inside
 * the workspace or the data dir becomes a base64 data URI; a remote URL is fetched (and inlined) only when remote fetch
 * is allowed, through a {@link RemoteImages} that refuses private and loopback addresses. At most {@code maxImages}
 * images, the newest first, each at most {@code maxBytes}; an image that cannot be inlined becomes a short note
 * instead, so the model knows one was there.
 */
public final class ImageInliner {
    private static final Logger log = LoggerFactory.getLogger(ImageInliner.class);
    private static final Pattern MARKER = Pattern.compile("\\[IMAGE:([^\\]\\n]+)]");

    /** Fetches a remote image; {@link RemoteImages#refuseAll()} when remote fetch is off. */
    @FunctionalInterface
    public interface RemoteImages {
        Image fetch(URI url, long maxBytes) throws IOException;

        static RemoteImages refuseAll() {
            return (url, max) -> {
                throw new IOException("remote image fetch is off (multimodal.allow_remote_fetch)");
            };
        }
    }

    /** Image bytes and their media type. */
    public record Image(String mediaType, byte[] bytes) {}

    private final List<Path> roots;
    private final int maxImages;
    private final long maxBytes;
    private final RemoteImages remote;

    public ImageInliner(List<Path> roots, int maxImages, long maxBytes, RemoteImages remote) {
        this.roots = List.copyOf(roots);
        if (maxImages < 0) throw new IllegalArgumentException("maxImages must be zero or more");
        if (maxBytes < 1) throw new IllegalArgumentException("maxBytes must be positive");
        this.maxImages = maxImages;
        this.maxBytes = maxBytes;
        this.remote = Objects.requireNonNull(remote, "remote");
    }

    /** The messages with the newest {@code maxImages} user image markers inlined, the rest as notes. */
    public List<ChatMessage> inline(List<ChatMessage> messages) {
        int budget = maxImages;
        List<ChatMessage> out = new ArrayList<>(messages);
        for (int i = out.size() - 1; i >= 0; i--) {
            ChatMessage m = out.get(i);
            if (m.role() != Role.USER || m.content() == null || !m.content().contains("[IMAGE:")) continue;
            List<String> locations = new ArrayList<>();
            Matcher found = MARKER.matcher(m.content());
            while (found.find()) locations.add(found.group(1).strip());
            // newest images win: within a message, the later markers
            int allowedHere = Math.max(0, Math.min(budget, locations.size()));
            int firstAllowed = locations.size() - allowedHere;
            budget -= allowedHere;
            StringBuilder sb = new StringBuilder();
            Matcher r = MARKER.matcher(m.content());
            int index = 0;
            while (r.find()) {
                String replacement = index++ >= firstAllowed
                        ? inlineOne(r.group(1).strip())
                        : "[image omitted: more than " + maxImages + " images]";
                r.appendReplacement(sb, Matcher.quoteReplacement(replacement));
            }
            r.appendTail(sb);
            out.set(i, m.withContent(sb.toString()));
        }
        return out;
    }

    private String inlineOne(String location) {
        if (location.startsWith("data:image/")) return "[IMAGE:" + location + "]";
        try {
            Image image = location.startsWith("http://") || location.startsWith("https://")
                    ? remote.fetch(URI.create(location), maxBytes)
                    : local(location);
            return "[IMAGE:data:" + image.mediaType() + ";base64,"
                    + Base64.getEncoder().encodeToString(image.bytes()) + "]";
        } catch (IOException | IllegalArgumentException e) {
            // SPEC OP-6: the location is what the user or the model wrote: at DEBUG only
            log.info("an image was not given to the model ({})", e.getClass().getSimpleName());
            log.debug("image {} not given to the model: {}", shown(location), e.getMessage());
            return "[image not available: " + e.getMessage() + "]";
        }
    }

    private Image local(String location) throws IOException {
        Path p = Path.of(location).toAbsolutePath().normalize();
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) throw new IOException("no such file");
        Path real = p.toRealPath();
        if (roots.stream().noneMatch(root -> real.startsWith(realOrSelf(root)))) {
            throw new IOException("outside the workspace and the data dir");
        }
        long size = Files.size(real);
        if (size > maxBytes) throw new IOException("larger than " + maxBytes + " bytes");
        String type = mediaType(real.getFileName().toString());
        if (type == null) throw new IOException("not a png, jpeg, gif or webp image");
        return new Image(type, Files.readAllBytes(real));
    }

    private static Path realOrSelf(Path root) {
        try {
            return root.toRealPath();
        } catch (IOException missing) {
            return root.toAbsolutePath().normalize();
        }
    }

    static String mediaType(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".png")) return "image/png";
        if (n.endsWith(".jpg") || n.endsWith(".jpeg")) return "image/jpeg";
        if (n.endsWith(".gif")) return "image/gif";
        if (n.endsWith(".webp")) return "image/webp";
        return null;
    }

    /** A location for the log: a URL without its query (it may carry a token), a file by its name. */
    private static String shown(String location) {
        int q = location.indexOf('?');
        return q < 0 ? location : location.substring(0, q) + "?…";
    }
}
