package dev.clawgate.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Downloaded images stay bounded (SPEC OP-7, OUT-13): by age, then by size oldest first, never what is in use. */
class MediaPruneTest {
    private static final Instant NOW = Instant.parse("2026-11-27T07:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir
    Path dir;

    private Path file(String name, int bytes, Duration ago) throws Exception {
        Path p = Files.write(dir.resolve(name), new byte[bytes]);
        Files.setLastModifiedTime(p, FileTime.from(NOW.minus(ago)));
        return p;
    }

    @Test
    void filesUnusedForAWeekGoAndRecentOnesStay() throws Exception {
        // SPEC OP-7: unused for 7 days
        Path old = file("1-old.png", 10, Duration.ofDays(8));
        Path recent = file("2-recent.png", 10, Duration.ofDays(6));
        Path partial = file("3.part", 10, Duration.ofHours(2));
        assertThat(MediaPrune.prune(dir, MediaPrune.MAX_AGE, MediaPrune.MAX_BYTES, CLOCK))
                .isEqualTo(2);
        assertThat(old).doesNotExist();
        assertThat(partial).doesNotExist();
        assertThat(recent).exists();
    }

    @Test
    void pastTheSizeCapTheOldestGoFirstButNoneUsedWithinTheHour() throws Exception {
        // SPEC OP-7: a size cap, oldest first; a file a queued turn may still read stays
        Path oldest = file("a.png", 40, Duration.ofDays(3));
        Path older = file("b.png", 40, Duration.ofDays(2));
        Path newer = file("c.png", 40, Duration.ofHours(5));
        Path inUse = file("d.png", 40, Duration.ofMinutes(10));
        assertThat(MediaPrune.prune(dir, MediaPrune.MAX_AGE, 100, CLOCK)).isEqualTo(2);
        assertThat(oldest).doesNotExist();
        assertThat(older).doesNotExist();
        assertThat(newer).exists();
        assertThat(inUse).exists();
        // all that is left in use: over the cap, nothing more goes
        file("e.png", 90, Duration.ofMinutes(1));
        assertThat(MediaPrune.prune(dir, MediaPrune.MAX_AGE, 100, CLOCK)).isEqualTo(1);
        assertThat(newer).doesNotExist();
        assertThat(inUse).exists();
    }

    @Test
    void aMissingFolderIsNothingToPrune() {
        // SPEC OP-7: no downloads yet
        assertThat(MediaPrune.prune(dir.resolve("none"), MediaPrune.MAX_AGE, 1, CLOCK))
                .isZero();
    }
}
