package dev.clawgate.store;

import dev.clawgate.core.store.StoreException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data dir and the database files are private to the gateway's user (SPEC OP-6: they hold every conversation,
 * pairing code and reply): directories 0700, files 0600, whoever creates them. A file or folder found open to the group
 * or to others is tightened, with one log line saying so. SQLite gives the WAL and shared-memory files the database
 * file's mode, so creating the database file 0600 before SQLite opens it keeps those private too. On a file system
 * without POSIX permissions this does nothing.
 */
public final class PrivateFiles {
    private static final Logger log = LoggerFactory.getLogger(PrivateFiles.class);
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OPEN_TO_OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);
    /** What SQLite keeps beside a database file. */
    static final String[] SQLITE_SIDE_FILES = {"-wal", "-shm", "-journal"};

    private PrivateFiles() {}

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Creates {@code dir} (and missing parents, each 0700), or tightens it to 0700 when it exists open to others.
     * Parents that exist are left alone: they are not ours.
     *
     * @throws StoreException when it cannot be created or tightened
     */
    public static void directory(Path dir) {
        try {
            if (!posix()) {
                Files.createDirectories(dir);
                return;
            }
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
                // the umask may have taken bits the attribute asked for, never added any: set it exactly
                Files.setPosixFilePermissions(dir, DIRECTORY);
                return;
            }
            tighten(dir, DIRECTORY);
        } catch (IOException e) {
            throw new StoreException(
                    "cannot make the folder " + dir + " private to this user ("
                            + e.getClass().getSimpleName() + "); check who owns it",
                    e);
        }
    }

    /**
     * The SQLite database {@code file}: created empty with mode 0600 when missing (SQLite takes an empty file as a new
     * database), else tightened, with its WAL, shared-memory and journal files.
     */
    public static void sqliteFiles(Path file) {
        if (!posix()) return;
        try {
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
            } catch (FileAlreadyExistsException exists) {
                tighten(file, FILE);
            }
            for (String side : SQLITE_SIDE_FILES) {
                Path p = file.resolveSibling(file.getFileName() + side);
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) tighten(p, FILE);
            }
        } catch (IOException e) {
            throw new StoreException(
                    "cannot make the database file " + file + " private to this user ("
                            + e.getClass().getSimpleName() + "); check who owns it",
                    e);
        }
    }

    /** Sets {@code wanted} on {@code p} when it is open to the group or others; says so once. */
    private static void tighten(Path p, Set<PosixFilePermission> wanted) throws IOException {
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        if (now.stream().noneMatch(OPEN_TO_OTHERS::contains)) return;
        Files.setPosixFilePermissions(p, wanted);
        log.warn(
                "{} was {}, open to other users; made it {} (the gateway's data is private to its user)",
                p,
                PosixFilePermissions.toString(now),
                PosixFilePermissions.toString(wanted));
    }
}
