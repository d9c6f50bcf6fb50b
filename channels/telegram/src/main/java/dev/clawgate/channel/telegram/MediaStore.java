package dev.clawgate.channel.telegram;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bot's downloaded media, {@code <data_dir>/telegram/<account>/media} (SPEC OP-7: bounded).
 * Files are named by Telegram's {@code file_unique_id}, the same for one file across redeliveries
 * and bots, so a redelivered update finds its file and is not downloaded again. {@link #prune}
 * removes files older than the account's {@code media_max_age_hours}, then the oldest until the
 * folder is within {@code media_max_total_mb}; a file used within {@link #IN_USE} is kept, as a
 * turn waiting in its queue may still read it.
 */
final class MediaStore {
    private static final Logger log = LoggerFactory.getLogger(MediaStore.class);
    /** A file this recent may belong to a turn that has not run yet (the inbox's own max age is 1 h by default). */
    static final Duration IN_USE = Duration.ofHours(1);
    /** A partial download (a crash mid-write) carries this suffix until it is complete. */
    private static final String PARTIAL = ".part";
    /** At most this many files are looked at per prune: the folder's listing stays bounded too. */
    static final int MAX_LISTED = 100_000;

    private final Path dir;
    private final Duration maxAge;
    private final long maxBytes;
    private final Clock clock;

    /** @param maxAge files unused this long go; @param maxBytes the most kept in all, oldest going first */
    MediaStore(Path dir, Duration maxAge, long maxBytes, Clock clock) {
        this.dir = dir;
        this.maxAge = maxAge;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    Path dir() {
        return dir;
    }

    /** Where the file named {@code name} lives (it may not exist yet). */
    Path path(String name) {
        return dir.resolve(name);
    }

    /**
     * The stored file {@code name}, if a complete one is there: marked used now, so pruning by age
     * counts from its last use.
     */
    boolean reuse(String name) {
        Path p = path(name);
        if (!Files.isRegularFile(p)) return false;
        try {
            Files.setLastModifiedTime(p, FileTime.from(clock.instant()));
        } catch (IOException e) {
            log.debug("telegram: could not mark {} as used: {}", name, e.toString());
        }
        return true;
    }

    /** Writes {@code bytes} as {@code name}, whole or not at all (a partial file never takes the name). */
    Path write(String name, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Path target = path(name);
        Path partial = dir.resolve(name + "." + UUID.randomUUID() + PARTIAL);
        try {
            Files.write(partial, bytes);
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
        Files.setLastModifiedTime(target, FileTime.from(clock.instant()));
        return target;
    }

    /** Removes what is past the limits; returns how many files went. Never throws: a file that cannot go is logged and left. */
    int prune() {
        if (!Files.isDirectory(dir)) return 0;
        Instant now = clock.instant();
        List<Stored> files = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir)) {
            for (Path p : listing) {
                if (files.size() >= MAX_LISTED) break;
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile()) files.add(new Stored(p, a.lastModifiedTime().toInstant(), a.size()));
                } catch (NoSuchFileException gone) {
                    // removed meanwhile: nothing to prune
                }
            }
        } catch (IOException e) {
            log.warn("telegram: could not list {} to prune it: {}", dir, e.toString());
            return 0;
        }
        files.sort(Comparator.comparing(Stored::used));
        long total = files.stream().mapToLong(Stored::size).sum();
        int removed = 0;
        for (Stored f : files) {
            boolean tooOld = f.used().isBefore(now.minus(maxAge));
            boolean overSize = total > maxBytes && f.used().isBefore(now.minus(IN_USE));
            boolean abandoned = f.path().getFileName().toString().endsWith(PARTIAL) && f.used().isBefore(now.minus(IN_USE));
            if (!tooOld && !overSize && !abandoned) continue;
            try {
                Files.deleteIfExists(f.path());
                total -= f.size();
                removed++;
            } catch (IOException e) {
                log.warn("telegram: could not remove {}: {}", f.path().getFileName(), e.toString());
            }
        }
        if (removed > 0) log.info("telegram: removed {} downloaded media file(s) from {} ({} bytes kept)", removed, dir, total);
        if (total > maxBytes) {
            log.warn("telegram: {} holds {} bytes, above its limit of {}, all of it used within the last {} min", dir, total,
                    maxBytes, IN_USE.toMinutes());
        }
        return removed;
    }

    private record Stored(Path path, Instant used, long size) {}
}
