package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Telegram update parser over thousands of generated and mutated updates (SPEC IN-4, CH-0, CH-3): it never throws,
 * what it accepts is well-formed, and no update blocks polling or the webhook. The seed is printed on failure;
 * {@code -Dclawgate.fuzz.seed=N} replays one.
 */
class UpdateReaderPropertyTest {
    private static final long SEED = Long.getLong("clawgate.fuzz.seed", 0x7E1E_6EA3L);
    private static final int READS = Integer.getInteger("clawgate.fuzz.reads", 3_000);

    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
    }

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        tg.close();
    }

    private UpdateReader reader() {
        TelegramAccount account = TelegramFixture.account(tg, false, false);
        Bot bot = new Bot(account, new BotApi(account.apiBase(), account.botToken(), BotApi.client()));
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            bot.identify();
            return bot.identified();
        });
        MediaStore media = new MediaStore("telegram", dir, Duration.ofDays(1), 1 << 20, java.time.Clock.systemUTC());
        return new UpdateReader(bot, new MediaFetcher(bot.api, media));
    }

    @Test
    void theReaderNeverThrowsAndWhatItAcceptsIsWellFormed() {
        // SPEC IN-4, CH-0: every input is a message, ignored, or unreadable with a reason; none escapes as an exception
        UpdateReader reader = reader();
        UpdateFuzz fuzz = new UpdateFuzz(SEED, tg.bot().id());
        Random kind = new Random(SEED);
        int messages = 0, unreadable = 0;
        for (int i = 0; i < READS; i++) {
            ObjectNode base = fuzz.wellFormed(1000 + i);
            ObjectNode input = kind.nextInt(4) == 0 ? base : fuzz.mutate(base);
            UpdateReader.Reading r;
            try {
                r = reader.read(input);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + SEED + ", input " + i + " threw: " + input, e);
            }
            switch (r) {
                case UpdateReader.Reading.Message m -> {
                    messages++;
                    wellFormed(m.message(), i, input);
                }
                case UpdateReader.Reading.Unreadable u -> {
                    unreadable++;
                    assertThat(u.reason()).as("seed %d input %d", SEED, i).isNotBlank();
                }
                case UpdateReader.Reading.Ignored ignored -> {}
            }
            if (input == base && !(r instanceof UpdateReader.Reading.Message)) {
                fail("seed " + SEED + ", input " + i + ": a well-formed update was not read as a message: " + r + " "
                        + input);
            }
        }
        // the generator reaches every outcome, or the property proves little
        assertThat(messages).as("seed %d", SEED).isGreaterThan(READS / 10);
        assertThat(unreadable).as("seed %d", SEED).isGreaterThan(READS / 20);
    }

    private static void wellFormed(InboundMessage m, int i, ObjectNode input) {
        String where = "input " + i + " (seed " + SEED + "): " + input;
        assertThat(m.id()).as(where).matches("-?\\d+:\\d+");
        assertThat(m.sender()).as(where).matches("-?\\d+");
        assertThat(m.replyTarget()).as(where).matches("-?\\d+");
        if (m.threadId() != null) assertThat(m.threadId()).as(where).matches("-?\\d+");
        assertThat(m.timestamp().getEpochSecond()).as(where).isBetween(0L, UpdateReader.MAX_DATE);
        if (m.senderName() != null) assertThat(m.senderName()).as(where).doesNotContainPattern("\\p{Cntrl}");
        assertThat(m.text().isBlank() && m.attachments().isEmpty()).as(where).isFalse();
    }

    @Test
    void noMutatedUpdateBlocksPollingAndEveryMessageBetweenThemArrives() {
        // SPEC CH-0, IN-4: a stream of poison updates interleaved with real messages; the offset passes them all
        RecordingSink sink = new RecordingSink();
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
        channel.start(sink);
        TelegramChat dm = tg.privateChat(tg.user(111, "alice"));
        UpdateFuzz fuzz = new UpdateFuzz(SEED + 1, tg.bot().id());
        List<String> real = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            tg.sendRawUpdate(id -> fuzz.mutate(fuzz.wellFormed(id)));
            if (i % 10 == 0) {
                real.add("real " + i);
                tg.sendText(dm, tg.user(111, "alice"), "real " + i);
            }
        }
        long last = tg.lastUpdateId();
        await().atMost(Duration.ofSeconds(60)).until(() -> tg.confirmedOffset() > last);
        assertThat(sink.texts()).as("seed %d", SEED + 1).containsAll(real);
        assertThat(channel.health().healthy()).isTrue();
    }

    @Test
    void everyMutatedWebhookBodyIsAnswered200SoTelegramNeverRedeliversItForEver() {
        // SPEC CH-3, IN-4: the webhook answers 2xx to anything with the right secret, recorded or kept as unreadable
        UpdateReader reader = reader();
        RecordingSink sink = new RecordingSink();
        TelegramAccount a = TelegramFixture.account(tg, false, false);
        TelegramAccount hooked = new TelegramAccount(
                a.id(),
                a.botToken(),
                URI.create(tg.apiBase()),
                TelegramAccount.Mode.WEBHOOK,
                "https://bot.example.com/hook",
                "s3cret_s3cret",
                a.webhookPath(),
                a.textLimit(),
                false,
                false,
                Duration.ofSeconds(1));
        Bot bot = new Bot(hooked, new BotApi(a.apiBase(), a.botToken(), BotApi.client()));
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            bot.identify();
            return true;
        });
        TelegramWebhookReceiver receiver = new TelegramWebhookReceiver(bot, reader, () -> sink);
        UpdateFuzz fuzz = new UpdateFuzz(SEED + 2, tg.bot().id());
        Random bytes = new Random(SEED + 2);
        for (int i = 0; i < 500; i++) {
            byte[] body = fuzz.mutate(fuzz.wellFormed(i)).toString().getBytes(StandardCharsets.UTF_8);
            // every fifth body is also cut or bit-flipped: bytes that are not JSON at all
            if (i % 5 == 0 && body.length > 0) {
                body = java.util.Arrays.copyOf(body, bytes.nextInt(body.length));
                if (body.length > 0) body[bytes.nextInt(body.length)] ^= (byte) (1 << bytes.nextInt(8));
            }
            Map<String, String> headers = Map.of("X-Telegram-Bot-Api-Secret-Token", "s3cret_s3cret");
            int status = receiver.handle(new WebhookRoute.Request(headers, body, "127.0.0.1"))
                    .status();
            String shown = new String(body, StandardCharsets.UTF_8);
            assertThat(status).as("seed %d body %d: %s", SEED + 2, i, shown).isEqualTo(200);
        }
        assertThat(sink.accepted.size() + sink.unreadable.size()).isPositive();
        assertThat(sink.unreadable)
                .allSatisfy(u -> assertThat(u.raw().length())
                        .isLessThanOrEqualTo(dev.clawgate.core.store.UnreadableInbound.MAX_RAW_CHARS));
    }
}
