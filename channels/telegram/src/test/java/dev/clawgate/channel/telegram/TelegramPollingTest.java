package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-polling loop as the fake Bot API sees it (SPEC CH-3, CH-0): its getUpdates parameters and how it waits after
 * a 429.
 */
class TelegramPollingTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private final List<InboundMessage> received = new CopyOnWriteArrayList<>();
    private TelegramUser alice;
    private TelegramChat dm;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
        channel.start(m -> {
            received.add(m);
            return InboundSink.Acceptance.recorded(received.size());
        });
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !tg.calls("getUpdates").isEmpty());
    }

    @AfterEach
    void stop() {
        channel.stop();
        tg.close();
    }

    @Test
    void getUpdatesIsALongPollWithTheOffsetPastWhatWasRecorded() {
        // SPEC CH-3 (long polling: getUpdates with a timeout, offset acks), IN-3 (the offset passes only recorded
        // updates)
        JsonNode first = tg.calls("getUpdates").getFirst();
        assertThat(first.path("timeout").asInt())
                .isEqualTo(PollingLoop.POLL_SECONDS)
                .isPositive();
        assertThat(first.path("offset").asLong()).isZero();
        assertThat(first.path("allowed_updates").toString()).isEqualTo("[\"message\"]");

        tg.sendText(dm, alice, "hello");
        long update = tg.lastUpdateId();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tg.calls("getUpdates").size() >= 2);
        JsonNode next = tg.calls("getUpdates").get(1);
        assertThat(next.path("offset").asLong()).isEqualTo(update + 1);
        assertThat(next.path("timeout").asInt()).isEqualTo(PollingLoop.POLL_SECONDS);
        assertThat(received).extracting(InboundMessage::text).containsExactly("hello");
    }

    @Test
    void aRateLimitedPollWaitsTheRetryAfterTelegramNamedBeforeItPollsAgain() {
        // SPEC CH-3, CH-0: a 429 on getUpdates is waited out for its retry_after (longer than the 0.5 s first backoff)
        tg.failNext("getUpdates", 429, 2);
        tg.sendText(dm, alice, "wake the long poll"); // the poll in progress answers; the next one meets the 429
        await().atMost(Duration.ofSeconds(15))
                .until(() -> tg.calls("getUpdates").size() >= 4);

        List<Instant> polls = tg.callTimes("getUpdates");
        List<JsonNode> bodies = tg.calls("getUpdates");
        // poll 2 got the 429; poll 3 is the retry
        assertThat(Duration.between(polls.get(1), polls.get(2))).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(bodies.get(2).path("offset").asLong())
                .isEqualTo(bodies.get(1).path("offset").asLong());
        // the retry does not hold the line (health shows recovery at once); then long polling resumes
        assertThat(bodies.get(2).path("timeout").asInt()).isZero();
        assertThat(bodies.get(3).path("timeout").asInt()).isEqualTo(PollingLoop.POLL_SECONDS);
        assertThat(received).extracting(InboundMessage::text).containsExactly("wake the long poll");
        assertThat(channel.health().healthy()).isTrue();
    }

    @Test
    void whileRateLimitedTheChannelSaysSoInItsHealth() {
        // SPEC CH-0: a channel that cannot poll shows as unhealthy, with why
        tg.failNext("getUpdates", 429, 3);
        tg.sendText(dm, alice, "wake");
        await().atMost(Duration.ofSeconds(10)).until(() -> !channel.health().healthy());
        assertThat(channel.health().detail()).contains("rate-limited by Telegram, polling again in 3 s");
        await().atMost(Duration.ofSeconds(15)).until(() -> channel.health().healthy());
    }
}
