package dev.clawgate.core.channel.socket;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bot's gateway session kept under the data dir (SPEC CH-5, CH-13, IN-4): its id, the URL it resumes on, and the last
 * sequence handled, so a gateway restarted (or killed) within the platform's session timeout resumes and gets what was
 * dispatched meanwhile. The sequence written never runs ahead of the inbox: it is written after the message was
 * committed, and one written late only replays messages the inbox drops as duplicates (IN-1).
 */
public final class SessionFile {
    private static final Logger log = LoggerFactory.getLogger(SessionFile.class);

    /** What was kept: a session and where it stood, or nothing. */
    public record Session(String id, String resumeUrl, long seq) {}

    private final Path file;
    private final String platform;

    /** @param platform named in warnings, e.g. {@code Discord} */
    public SessionFile(Path file, String platform) {
        this.file = file;
        this.platform = platform;
    }

    public Session read() {
        try {
            if (!Files.exists(file)) return null;
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.size() < 3 || lines.get(0).isBlank()) return null;
            return new Session(
                    lines.get(0).strip(),
                    lines.get(1).strip(),
                    Long.parseLong(lines.get(2).strip()));
        } catch (IOException | NumberFormatException e) {
            log.warn(
                    "the {} session file {} cannot be read ({}); a new session is started",
                    platform,
                    file,
                    e.toString());
            return null;
        }
    }

    /** Keeps {@code s}, or forgets the session when it is null. */
    public void write(Session s) {
        try {
            if (s == null) {
                Files.deleteIfExists(file);
                return;
            }
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, s.id() + "\n" + s.resumeUrl() + "\n" + s.seq() + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // without it a restart identifies anew: nothing recorded is lost, only what was dispatched while down
            log.warn("the {} session file {} cannot be written: {}", platform, file, e.toString());
        }
    }
}
