package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Downloaded media under {@code <data_dir>/telegram/<account>/media} (SPEC OP-7: bounded): pruned by age and total size
 * at start and on a timer, and a redelivered update reuses the file its first delivery fetched (IN-1) rather than
 * downloading it again.
 */
class TelegramMediaTest {
    private static final long KB = 1024;

    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramUser alice;
    private TelegramChat dm;
    private final List<InboundMessage> received = new CopyOnWriteArrayList<>();
    private final List<TelegramChannel> channels = new CopyOnWriteArrayList<>();
    private final ManualScheduler timer = new ManualScheduler();

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
    }

    @AfterEach
    void stop() {
        channels.forEach(TelegramChannel::stop);
        tg.close();
    }

    private Path media() {
        return dir.resolve("telegram").resolve(InboundMessage.DEFAULT_ACCOUNT).resolve("media");
    }

    private TelegramChannel started(Duration maxAge, long maxBytes) {
        TelegramAccount base = TelegramFixture.account(tg, false, false);
        TelegramAccount account = new TelegramAccount(
                base.id(),
                base.botToken(),
                URI.create(tg.apiBase()),
                base.mode(),
                null,
                null,
                base.webhookPath(),
                base.textLimit(),
                false,
                false,
                base.previewInterval(),
                AckPolicy.AFTER_RECEIVE_RECORD,
                maxAge,
                maxBytes);
        TelegramChannel channel =
                new TelegramChannel(List.of(account), dir, Duration.ofSeconds(5), Duration.ZERO, timer, Runnable::run);
        channels.add(channel);
        channel.start(m -> {
            received.add(m);
            return InboundSink.Acceptance.recorded(received.size());
        });
        return channel;
    }

    private Path file(String name, long bytes, Duration age) throws Exception {
        Files.createDirectories(media());
        Path p = Files.write(media().resolve(name), new byte[(int) bytes]);
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(age)));
        return p;
    }

    @Test
    void aRedeliveredPhotoReusesTheFileTheFirstDeliveryFetched() {
        // SPEC IN-1 (a redelivery is the same message), OP-7 (no second copy, no second download)
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, 7, 7, 7};
        TelegramChannel first = started(TelegramAccount.DEFAULT_MEDIA_MAX_AGE, TelegramAccount.DEFAULT_MEDIA_MAX_BYTES);
        tg.sendPhoto(dm, alice, jpeg, "look");
        long update = tg.lastUpdateId();
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1 && tg.confirmedOffset() > update);
        first.stop();

        tg.redeliver(update); // Telegram serves it again to a poller that starts over
        started(TelegramAccount.DEFAULT_MEDIA_MAX_AGE, TelegramAccount.DEFAULT_MEDIA_MAX_BYTES);
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);

        assertThat(received.get(1).id()).isEqualTo(received.get(0).id());
        Path stored = Path.of(received.get(0).attachments().getFirst().location());
        assertThat(Path.of(received.get(1).attachments().getFirst().location())).isEqualTo(stored);
        assertThat(stored).hasBinaryContent(jpeg);
        assertThat(tg.calls("getFile")).hasSize(1);
        assertThat(tg.calls().stream().filter(c -> c.method().equals("downloadFile")))
                .hasSize(1);
    }

    @Test
    void filesPastTheMaxAgeArePrunedAtStartAndThenEveryHour() throws Exception {
        // SPEC OP-7 (media_max_age_hours)
        Path old = file("AgA1_photo.jpg", 10, Duration.ofDays(8));
        Path recent = file("AgA2_photo.jpg", 10, Duration.ofDays(1));
        TelegramChannel channel = started(Duration.ofDays(7), TelegramAccount.DEFAULT_MEDIA_MAX_BYTES);
        assertThat(old).doesNotExist();
        assertThat(recent).exists();

        Files.setLastModifiedTime(
                recent, FileTime.from(Instant.now().minus(Duration.ofDays(7)).minusSeconds(60)));
        timer.advance(TelegramChannel.PRUNE_EVERY.toMillis() - 1);
        assertThat(recent).as("not yet an hour since the last prune").exists();
        timer.advance(1);
        assertThat(recent).doesNotExist();
        assertThat(timer.live()).as("the next prune").isEqualTo(1);
        channel.stop();
        assertThat(timer.live()).as("a stopped channel prunes no more").isZero();
    }

    @Test
    void pastTheSizeLimitTheOldestGoUntilTheRestFits() throws Exception {
        // SPEC OP-7 (media_max_total_mb: oldest first, only as many as needed)
        Path oldest = file("a_doc.bin", 400 * KB, Duration.ofHours(3));
        Path older = file("b_doc.bin", 400 * KB, Duration.ofHours(2));
        Path newer = file("c_doc.bin", 400 * KB, Duration.ofMinutes(90));
        started(Duration.ofDays(7), 1024 * KB);
        assertThat(oldest).doesNotExist();
        assertThat(older).exists();
        assertThat(newer).exists();
    }

    @Test
    void aFileUsedWithinTheLastHourStaysEvenOverTheSizeLimit() throws Exception {
        // SPEC OP-7: a turn still waiting in its queue may read it; the limit is met as soon as such files age
        Path stale = file("a_doc.bin", 100 * KB, Duration.ofHours(2));
        Path fresh = file("b_doc.bin", 2048 * KB, Duration.ofMinutes(5));
        started(Duration.ofDays(7), 1024 * KB);
        assertThat(stale).doesNotExist();
        assertThat(fresh).exists();
    }

    @Test
    void aPartialDownloadLeftByACrashIsRemovedOnceItIsStale() throws Exception {
        // SPEC OP-7: nothing accumulates, not even what a crash left half-written
        Path partial = file("AgA3_photo.jpg.5f1c.part", 10, Duration.ofHours(2));
        Path writing = file("AgA4_photo.jpg.77aa.part", 10, Duration.ofMinutes(1));
        started(Duration.ofDays(7), TelegramAccount.DEFAULT_MEDIA_MAX_BYTES);
        assertThat(partial).doesNotExist();
        assertThat(writing).exists();
    }
}
