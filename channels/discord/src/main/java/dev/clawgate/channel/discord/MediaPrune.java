package dev.clawgate.channel.discord;

import dev.clawgate.core.channel.MediaStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Keeps the downloaded images bounded (SPEC OP-7, OUT-13): at start, files unused for {@link #MAX_AGE} go, then the
 * oldest until the folder is within {@link #MAX_BYTES}. A file used within {@link #IN_USE} stays whatever the size (a
 * turn waiting in its queue may still read it); a partial download left by a crash goes once it is that old. A file's
 * last use is its modification time: {@link AttachmentFetcher} renews it when a message names it again. The pruning
 * itself is core's {@link MediaStore}, shared by every channel that downloads media.
 */
final class MediaPrune {
    static final Duration MAX_AGE = MediaStore.DEFAULT_MAX_AGE;
    static final long MAX_BYTES = MediaStore.DEFAULT_MAX_BYTES;
    static final Duration IN_USE = MediaStore.IN_USE;

    private MediaPrune() {}

    /** Removes what is past the limits from {@code dir} ({@link MediaStore#prune}); returns how many files went. */
    static int prune(Path dir, Duration maxAge, long maxBytes, Clock clock) {
        if (dir == null) return 0;
        return new MediaStore("discord", dir, maxAge, maxBytes, clock).prune();
    }
}
