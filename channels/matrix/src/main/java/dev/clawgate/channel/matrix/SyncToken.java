package dev.clawgate.channel.matrix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code next_batch} of the last {@code /sync} whose events are all committed to the inbox (SPEC IN-3, IN-4):
 * written only after the batch, so a crash replays the batch and the inbox's dedupe by event id drops what was already
 * recorded. Kept per user: a token of another login is not used.
 */
final class SyncToken {
    private final Path file;

    SyncToken(Path dir) {
        this.file = dir.resolve("next_batch");
    }

    /** The stored token for {@code userId}, or null (the first sync). */
    String read(String userId) {
        try {
            if (!Files.exists(file)) return null;
            String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n");
            return lines.length == 2 && lines[0].equals(userId) && !lines[1].isBlank() ? lines[1].strip() : null;
        } catch (IOException e) {
            throw new UncheckedIOException("matrix: cannot read the sync token " + file, e);
        }
    }

    void write(String userId, String token) {
        try {
            MatrixBot.write(file, userId + "\n" + token);
        } catch (IOException e) {
            throw new UncheckedIOException("matrix: cannot store the sync token " + file, e);
        }
    }
}
