package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The bot's login: its account, its API client, who it is ({@code whoami}) and its files under the data dir: the sync
 * token and an installation id that keeps transaction ids of a wiped data dir from meeting the ones the homeserver
 * still remembers.
 */
final class MatrixBot {
    final MatrixAccount account;
    final MatrixApi api;
    final Path dir;
    private volatile String userId;
    private volatile String installId;
    /** One installation id, however many sends ask for it at once. */
    private final java.util.concurrent.locks.ReentrantLock installLock = new java.util.concurrent.locks.ReentrantLock();

    MatrixBot(MatrixAccount account, MatrixApi api, Path dir) {
        this.account = account;
        this.api = api;
        this.dir = dir;
        this.userId = account.userId();
    }

    /** {@code GET /account/whoami}; a {@code user_id} in the config that differs is an error naming the key. */
    void identify() throws MatrixApiException {
        JsonNode me = api.get("/_matrix/client/v3/account/whoami");
        String who = me.path("user_id").asText(null);
        if (who == null)
            throw new MatrixApiException(
                    "whoami answered no user_id", MatrixApiException.Reach.ANSWERED, 200, null, null, null);
        if (account.userId() != null && !account.userId().equals(who)) {
            throw new IllegalStateException("channels.matrix.user_id is " + account.userId()
                    + " but the access token belongs to " + who
                    + "; set user_id = \"" + who + "\" or use that account's token");
        }
        userId = who;
    }

    /** The bot's user id, or null before {@link #identify} answered (and none is configured). */
    String userId() {
        return userId;
    }

    boolean identified() {
        return userId != null;
    }

    /**
     * A short random id kept in the data dir: the prefix of every transaction id this installation sends (SPEC OUT-7).
     */
    String installId() {
        String id = installId;
        if (id != null) return id;
        Path file = dir.resolve("install-id");
        installLock.lock();
        try {
            if (installId != null) return installId;
            if (Files.exists(file)) {
                id = Files.readString(file, StandardCharsets.UTF_8).strip();
            }
            if (id == null || !id.matches("[0-9a-f]{8}")) {
                id = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
                write(file, id);
            }
            installId = id;
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("matrix: cannot keep the installation id in " + file, e);
        } finally {
            installLock.unlock();
        }
    }

    /** Writes {@code text} to {@code file} so a crash leaves the old content or the new, never half (SPEC IN-4). */
    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (var ch = java.nio.channels.FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
