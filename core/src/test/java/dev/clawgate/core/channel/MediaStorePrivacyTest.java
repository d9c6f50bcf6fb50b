package dev.clawgate.core.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Downloaded media are private to the gateway's user (SPEC OP-6): folders 0700, files 0600, old ones tightened. */
class MediaStorePrivacyTest {
    @TempDir
    Path data;

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aDownloadedFileAndTheFoldersMadeForItArePrivate() throws IOException {
        // SPEC OP-6: before the fix the folders were 0755 and the files 0644, like any file the umask lets through
        Path dir = data.resolve("chat/default/media");
        MediaStore media = new MediaStore("chat", dir, Duration.ofDays(1), 1 << 20, Clock.systemUTC());
        Path file = media.write("u1_photo.jpg", new byte[] {1, 2, 3});
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(data.resolve("chat/default"))).isEqualTo("rwx------");
        assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);
    }

    @Test
    void mediaAnOlderVersionLeftReadableAreTightenedByTheFirstPrune() throws IOException {
        // SPEC OP-6: existing world-readable files are made private at start (the channel prunes at start)
        Path dir = Files.createDirectories(data.resolve("media"));
        Path old = Files.write(dir.resolve("u2_doc.txt"), new byte[] {4});
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
        new MediaStore("chat", dir, Duration.ofDays(1), 1 << 20, Clock.systemUTC()).prune();
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(old)).isEqualTo("rw-------");
        assertThat(old).exists();
    }
}
