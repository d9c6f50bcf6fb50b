package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;

/**
 * Coverage-guided fuzzing of the Telegram update reader (SPEC IN-4, CH-0) with Jazzer: any update JSON is a message,
 * ignored, or unreadable with a reason, never an exception. The bot identity comes from the fake Bot API over loopback.
 * Regression inputs (and any crash found) live in {@code UpdateReaderFuzzTestInputs}.
 */
class UpdateReaderFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static UpdateReader reader;

    private static UpdateReader reader() {
        if (reader != null) return reader;
        FakeTelegramServer tg = TelegramFixture.server();
        TelegramAccount account = TelegramFixture.account(tg, false, false);
        Bot bot = new Bot(account, new BotApi(account.apiBase(), account.botToken(), BotApi.client()));
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            bot.identify();
            return bot.identified();
        });
        try {
            MediaStore media = new MediaStore(
                    "telegram",
                    Files.createTempDirectory("tg-fuzz"),
                    Duration.ofDays(1),
                    1 << 20,
                    java.time.Clock.systemUTC());
            reader = new UpdateReader(bot, new MediaFetcher(bot.api, media));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reader;
    }

    // SPEC IN-4: the short run of every verify build
    @FuzzTest(maxDuration = "15s")
    void shortRunAnyUpdateIsReadWithoutAnException(FuzzedDataProvider data) {
        anyUpdateIsReadWithoutAnException(data.consumeRemainingAsString());
    }

    // SPEC IN-4: the long run of the fuzz profile
    @FuzzTest(maxDuration = "10m")
    void longRunAnyUpdateIsReadWithoutAnException(FuzzedDataProvider data) {
        anyUpdateIsReadWithoutAnException(data.consumeRemainingAsString());
    }

    static void anyUpdateIsReadWithoutAnException(String update) {
        JsonNode node;
        try {
            node = JSON.readTree(update);
        } catch (JsonProcessingException e) {
            return; // not JSON: the receiver answers 400 before the reader sees it
        }
        if (node == null) return;
        UpdateReader.Reading r = reader().read(node);
        switch (r) {
            case UpdateReader.Reading.Message m ->
                assertThat(m.message().replyTarget()).isNotBlank();
            case UpdateReader.Reading.Unreadable u -> assertThat(u.reason()).isNotBlank();
            case UpdateReader.Reading.Ignored i -> assertThat(i).isNotNull();
        }
    }
}
