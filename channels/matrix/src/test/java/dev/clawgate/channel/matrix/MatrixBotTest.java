package dev.clawgate.channel.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installation id every transaction id starts with (SPEC OUT-7, OUT-12: one id per payload, on every attempt). */
class MatrixBotTest {
    @TempDir
    Path dir;

    private MatrixBot bot() {
        var account = new MatrixAccount(
                "default",
                URI.create("http://127.0.0.1:9"),
                "t",
                "@b:x",
                MatrixAccount.AutoJoin.ALWAYS,
                List.of(),
                List.of(),
                false,
                false,
                4000,
                Duration.ofSeconds(1));
        return new MatrixBot(account, null, dir);
    }

    @Test
    void sendsAskingAtOnceGetOneIdAndARestartKeepsIt() throws Exception {
        // SPEC OUT-7, OUT-12: a first use raced by 32 sends gives one id, or a resend's transaction id would differ
        // from the first
        // attempt's
        MatrixBot bot = bot();
        Set<String> ids = ConcurrentHashMap.newKeySet();
        CountDownLatch go = new CountDownLatch(1);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 32; i++) {
                pool.submit(() -> {
                    go.await();
                    return ids.add(bot.installId());
                });
            }
            go.countDown();
        }
        assertThat(ids).hasSize(1);
        assertThat(Files.readString(dir.resolve("install-id")))
                .isEqualTo(ids.iterator().next());
        assertThat(bot().installId()).isEqualTo(ids.iterator().next());
    }
}
