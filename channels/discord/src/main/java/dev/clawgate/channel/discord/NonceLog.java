package dev.clawgate.channel.discord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * When each Create Message nonce was first sent (SPEC OUT-7): Discord checks a nonce with {@code enforce_nonce} only
 * for "the past few minutes", so a send cut off (by a lost answer, or a crash) can be made again with the same nonce,
 * and Discord returns the message it already has instead of a second one, only while that first attempt is recent. With
 * a file (under the data dir) every first attempt is written and forced to disk before the request leaves, so after a
 * restart a nonce absent from the log proves the payload was never sent. Without one it is kept in memory.
 */
final class NonceLog {
    /** How much of Discord's "few minutes" is relied on. */
    static final Duration TRUSTED = Duration.ofSeconds(90);

    private static final Duration KEPT = Duration.ofMinutes(30);

    private final Path file;
    private final Map<String, Instant> first = new ConcurrentHashMap<>();
    private final ReentrantLock writing = new ReentrantLock();

    /** @param file where first attempts are kept across restarts, or null for memory only */
    NonceLog(Path file) {
        this.file = file;
        if (file == null) return;
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) load();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Discord nonce log " + file, e);
        }
    }

    boolean persistent() {
        return file != null;
    }

    /** Records the first attempt of {@code nonce} (a later one keeps the first time); durable before it returns. */
    void attempt(String nonce, Instant now) {
        if (first.containsKey(nonce)) return;
        writing.lock();
        try {
            if (first.putIfAbsent(nonce, now) != null || file == null) return;
            try (FileChannel ch = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                ch.write(
                        ByteBuffer.wrap((nonce + " " + now.toEpochMilli() + "\n").getBytes(StandardCharsets.US_ASCII)));
                ch.force(false);
            } catch (IOException e) {
                first.remove(nonce);
                throw new UncheckedIOException("cannot write the Discord nonce log " + file, e);
            }
        } finally {
            writing.unlock();
        }
    }

    Optional<Instant> firstAttempt(String nonce) {
        return Optional.ofNullable(first.get(nonce));
    }

    /** Reads the log, keeping only recent attempts, and writes it back without the rest. */
    private void load() throws IOException {
        Instant oldest = Instant.now().minus(KEPT);
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
            String[] parts = line.split(" ");
            if (parts.length != 2) continue; // a line cut by a crash mid-write: its send never left
            try {
                Instant at = Instant.ofEpochMilli(Long.parseLong(parts[1]));
                if (at.isBefore(oldest)) continue;
                first.putIfAbsent(parts[0], at);
                kept.add(line);
            } catch (NumberFormatException cut) {
                // as above
            }
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, kept, StandardCharsets.US_ASCII);
        Files.move(
                tmp,
                file,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
