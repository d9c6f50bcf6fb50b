package dev.clawgate.core.channel;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel account's downloaded media, e.g. {@code <data_dir>/<channel>/<account>/media} (SPEC OP-7: bounded; OUT-13).
 * A channel names each file by the platform's stable id for it, so a redelivered message finds its file and does not
 * download it again ({@link #reuse}). {@link #prune} removes files unused for {@code maxAge}, then the oldest until the
 * folder is within {@code maxBytes}; a file used within {@link #IN_USE} is kept, as a turn waiting in its queue may
 * still read it. The folders are 0700 and the files 0600 (SPEC OP-6: what users send is private to the gateway's user);
 * media written by an older version is tightened by the first prune.
 */
public final class MediaStore {
    private static final Logger log = LoggerFactory.getLogger(MediaStore.class);
    /** A file this recent may belong to a turn that has not run yet (the inbox's own max age is 1 h by default). */
    public static final Duration IN_USE = Duration.ofHours(1);
    /** Files unused this long go, for a channel without a setting of its own. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(7);
    /** The most one account's files may take, oldest going first, for a channel without a setting of its own. */
    public static final long DEFAULT_MAX_BYTES = 1024L * 1024 * 1024;
    /** A partial download (a crash mid-write) carries this suffix until it is complete. */
    private static final String PARTIAL = ".part";
    /** At most this many files are looked at per prune: the folder's listing stays bounded too. */
    public static final int MAX_LISTED = 100_000;

    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");

    private final String channel;
    private final Path dir;
    private final Duration maxAge;
    private final long maxBytes;
    private final Clock clock;

    /**
     * @param channel the channel's name, for the log
     * @param maxAge files unused this long go
     * @param maxBytes the most kept in all, oldest going first
     */
    public MediaStore(String channel, Path dir, Duration maxAge, long maxBytes, Clock clock) {
        this.channel = channel;
        this.dir = dir;
        this.maxAge = maxAge;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    public Path dir() {
        return dir;
    }

    /** Where the file named {@code name} lives (it may not exist yet). */
    public Path path(String name) {
        return dir.resolve(name);
    }

    /**
     * The stored file {@code name}, if a complete one is there: marked used now, so pruning by age counts from its last
     * use.
     */
    public boolean reuse(String name) {
        Path p = path(name);
        if (!Files.isRegularFile(p)) return false;
        try {
            Files.setLastModifiedTime(p, FileTime.from(clock.instant()));
        } catch (IOException e) {
            log.debug("{}: could not mark {} as used: {}", channel, name, e.toString());
        }
        return true;
    }

    /** Writes {@code bytes} as {@code name}, whole or not at all (a partial file never takes the name). */
    public Path write(String name, byte[] bytes) throws IOException {
        if (!Files.isDirectory(dir)) {
            if (POSIX) Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
            else Files.createDirectories(dir);
        }
        Path target = path(name);
        Path partial = dir.resolve(name + "." + UUID.randomUUID() + PARTIAL);
        try {
            if (POSIX) Files.createFile(partial, PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
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

    /** Removes what is past the limits; returns how many files went. Never throws: a file that cannot go stays. */
    public int prune() {
        if (!Files.isDirectory(dir)) return 0;
        tightenOpenFiles();
        Instant now = clock.instant();
        List<Stored> files = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir)) {
            for (Path p : listing) {
                if (files.size() >= MAX_LISTED) break;
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile())
                        files.add(new Stored(p, a.lastModifiedTime().toInstant(), a.size()));
                } catch (NoSuchFileException gone) {
                    // removed meanwhile: nothing to prune
                }
            }
        } catch (IOException e) {
            log.warn("{}: could not list {} to prune it: {}", channel, dir, e.toString());
            return 0;
        }
        files.sort(Comparator.comparing(Stored::used));
        long total = files.stream().mapToLong(Stored::size).sum();
        int removed = 0;
        for (Stored f : files) {
            boolean tooOld = f.used().isBefore(now.minus(maxAge));
            boolean overSize = total > maxBytes && f.used().isBefore(now.minus(IN_USE));
            boolean partial = f.path().getFileName().toString().endsWith(PARTIAL);
            boolean abandoned = partial && f.used().isBefore(now.minus(IN_USE));
            if (!tooOld && !overSize && !abandoned) continue;
            try {
                Files.deleteIfExists(f.path());
                total -= f.size();
                removed++;
            } catch (IOException e) {
                log.warn("{}: could not remove {}: {}", channel, f.path().getFileName(), e.toString());
            }
        }
        if (removed > 0) {
            log.info("{}: removed {} downloaded media file(s) from {} ({} bytes kept)", channel, removed, dir, total);
        }
        if (total > maxBytes) {
            log.warn(
                    "{}: {} holds {} bytes, above its limit of {}, all of it used within the last {} min",
                    channel,
                    dir,
                    total,
                    maxBytes,
                    IN_USE.toMinutes());
        }
        return removed;
    }

    /** SPEC OP-6: the folder and files an older version left open to others are made private, said once. */
    private void tightenOpenFiles() {
        if (!POSIX) return;
        int tightened = 0;
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir)) {
            if (tighten(dir, PRIVATE_DIR)) tightened++;
            int seen = 0;
            for (Path p : listing) {
                if (++seen > MAX_LISTED) break;
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && tighten(p, PRIVATE_FILE)) tightened++;
            }
        } catch (IOException e) {
            log.warn("{}: could not make {} private to this user: {}", channel, dir, e.toString());
        }
        if (tightened > 0) {
            log.warn("{}: {} held {} entries open to other users; made them private", channel, dir, tightened);
        }
    }

    private static boolean tighten(Path p, Set<PosixFilePermission> wanted) throws IOException {
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        if (now.equals(wanted) || wanted.containsAll(now)) return false;
        Files.setPosixFilePermissions(p, wanted);
        return true;
    }

    private record Stored(Path path, Instant used, long size) {}
}
