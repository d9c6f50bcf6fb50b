package dev.clawgate.server.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * {@code <data_dir>/clawgate.lock}: a running gateway holds a shared lock on it for its whole life, and a restore an
 * exclusive one (SPEC OP-9). So a restore never overwrites the data of a running gateway, and a gateway never starts on
 * a database being restored. The operating system drops the lock when the process ends, even by {@code kill -9}: a
 * stale file locks nothing. The file holds the pid of the last process that took it.
 */
final class DataDirLock implements AutoCloseable {
    static final String FILE_NAME = "clawgate.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** A shared lock for a gateway; empty while a restore holds the exclusive one. */
    static Optional<DataDirLock> forGateway(Path dataDir) throws IOException {
        return take(dataDir, true);
    }

    /** {@link #forGateway}, or a failure that says a restore is under way. */
    static DataDirLock gateway(Path dataDir) throws IOException {
        return forGateway(dataDir)
                .orElseThrow(() -> new IllegalStateException("a restore is replacing the database in " + dataDir + " ("
                        + holder(dataDir) + "); start the gateway when it is done"));
    }

    /** The exclusive lock for a restore; empty while any gateway (or another restore) holds the file. */
    static Optional<DataDirLock> forRestore(Path dataDir) throws IOException {
        return take(dataDir, false);
    }

    /** The pid the lock file names, for the message that says who holds it. */
    static String holder(Path dataDir) {
        try {
            String pid = Files.readString(dataDir.resolve(FILE_NAME), StandardCharsets.US_ASCII)
                    .strip();
            return pid.matches("\\d{1,10}") ? "pid " + pid : "another process";
        } catch (IOException e) {
            return "another process";
        }
    }

    private static Optional<DataDirLock> take(Path dataDir, boolean shared) throws IOException {
        // SPEC OP-6: the data dir is made private here as the store would make it
        dev.clawgate.store.PrivateFiles.directory(dataDir);
        FileChannel channel = FileChannel.open(
                dataDir.resolve(FILE_NAME),
                java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        FileLock lock;
        try {
            lock = channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException heldHere) {
            lock = null;
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            return Optional.empty();
        }
        byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(pid), 0);
        return Optional.of(new DataDirLock(channel, lock));
    }

    /** For a shutdown hook: the process is ending and the system drops the lock anyway. */
    void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            System.err.println("clawgate: could not release " + FILE_NAME + ": " + e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
