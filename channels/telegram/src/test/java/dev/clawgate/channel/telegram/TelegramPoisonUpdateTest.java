package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.UnreadableInbound;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed updates as the issue found them (SPEC IN-4, CH-0, CH-3): one update must never stop the stream. Before the
 * fix each of them made every poll throw, so polling backed off and never moved past it.
 */
class TelegramPoisonUpdateTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private final RecordingSink sink = new RecordingSink();
    private TelegramUser alice;
    private TelegramChat dm;
    private TelegramChat group;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
        group = tg.group(-1001, "team");
    }

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        tg.close();
    }

    private void startPolling() {
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
        channel.start(sink);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !tg.calls("getUpdates").isEmpty());
    }

    @Test
    void anEntityWhoseLengthOverflowsIsSkippedAndTheMessageAndTheNextOneArrive() {
        // SPEC IN-4, CH-0: offset 1 + length 2147483647 wrapped round to a negative end and threw in every poll
        startPolling();
        ObjectNode m = tg.messageJson(group, alice, "x @clawbot hi");
        m.putArray("entities")
                .addObject()
                .put("type", "mention")
                .put("offset", 1)
                .put("length", Integer.MAX_VALUE);
        long poison = tg.sendRawUpdate(id -> update(id, m));
        tg.sendText(dm, alice, "after");

        await().atMost(Duration.ofSeconds(10)).until(() -> sink.accepted.size() == 2);
        assertThat(sink.texts()).containsExactly("x @clawbot hi", "after");
        assertThat(sink.accepted.getFirst().mentioned()).isFalse();
        assertThat(sink.unreadable).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.confirmedOffset() > poison + 1);
    }

    @Test
    void aDateOutOfRangeIsRecordedAsFailedWithItsRawUpdateAndAcknowledgedPast() {
        // SPEC IN-4: recorded as failed, the raw update kept, acknowledged; CH-0: the next message still arrives
        startPolling();
        ObjectNode m = tg.messageJson(dm, alice, "from the far future");
        m.put("date", 9e18);
        long poison = tg.sendRawUpdate(id -> update(id, m));
        tg.sendText(dm, alice, "after");

        await().atMost(Duration.ofSeconds(10)).until(() -> sink.accepted.size() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.confirmedOffset() > poison + 1);
        assertThat(sink.texts()).containsExactly("after");
        assertThat(sink.unreadable).hasSize(1);
        UnreadableInbound u = sink.unreadable.getFirst();
        assertThat(u.channel()).isEqualTo("telegram");
        assertThat(u.platformRef()).isEqualTo(Long.toString(poison));
        assertThat(u.reason()).contains("message.date");
        assertThat(u.raw()).contains("from the far future").contains("\"update_id\":" + poison);
    }

    @Test
    void aRestartDoesNotBringThePoisonUpdateBack() {
        // SPEC IN-4, CH-0: before the fix a restart polled the same update again and stopped again
        startPolling();
        ObjectNode m = tg.messageJson(dm, alice, "bad");
        m.put("message_id", "not-a-number");
        long poison = tg.sendRawUpdate(id -> update(id, m));
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.confirmedOffset() > poison);
        channel.stop();

        RecordingSink second = new RecordingSink();
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(5), Duration.ZERO);
        channel.start(second);
        tg.sendText(dm, alice, "hello again");
        await().atMost(Duration.ofSeconds(10)).until(() -> second.accepted.size() == 1);
        assertThat(second.texts()).containsExactly("hello again");
        assertThat(second.unreadable).isEmpty();
        assertThat(sink.unreadable)
                .extracting(UnreadableInbound::reason)
                .singleElement()
                .asString()
                .contains("message_id");
    }

    @Test
    void anUpdateWithoutAnIdIsRecordedAndTheNextOnesOffsetPassesIt() {
        // SPEC IN-4, CH-0: an update that cannot be confirmed by its own id still cannot hold the stream
        startPolling();
        tg.sendRawUpdate(id -> {
            ObjectNode u = update(id, tg.messageJson(dm, alice, "no id"));
            u.put("update_id", "seven");
            return u;
        });
        long next = tg.sendText(dm, alice, "after") > 0 ? tg.lastUpdateId() : -1;
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.confirmedOffset() > next);
        assertThat(sink.texts()).containsExactly("after");
        // until the next update passes it, a poll may bring it again: one record (the store keeps one per ref)
        String ref = sink.unreadable.getFirst().platformRef();
        assertThat(sink.unreadable).extracting(UnreadableInbound::platformRef).containsOnly(ref);
        assertThat(sink.unreadable.getFirst().reason()).contains("update_id");
    }

    @Test
    void aWebhookUpdateThatCannotBeReadIsRecordedAndAnswered200SoTelegramStopsRetryingIt() {
        // SPEC IN-4, CH-3: Telegram redelivers anything but 2xx; before the fix the reader threw (a 500, for ever)
        TelegramAccount account = new TelegramAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                TelegramFixture.TOKEN,
                URI.create(tg.apiBase()),
                TelegramAccount.Mode.WEBHOOK,
                "https://bot.example.com/hook",
                "s3cret_s3cret",
                TelegramSettings.DEFAULT_PATH,
                4096,
                false,
                false,
                Duration.ofSeconds(1));
        Bot bot = new Bot(account, new BotApi(account.apiBase(), account.botToken(), BotApi.client()));
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            bot.identify();
            return bot.identified();
        });
        MediaStore media = new MediaStore("telegram", dir, Duration.ofDays(1), 1 << 20, java.time.Clock.systemUTC());
        UpdateReader reader = new UpdateReader(bot, new MediaFetcher(bot.api, media));
        TelegramWebhookReceiver receiver = new TelegramWebhookReceiver(bot, reader, () -> sink);
        ObjectNode m = tg.messageJson(group, alice, "x @clawbot hi");
        m.put("date", 9e18);
        String[] bodies = {update(41, m).toString(), "{\"update_id\": 42, \"message\": ", "[1, 2, 3]"};
        for (String body : bodies) {
            Map<String, String> headers = Map.of("X-Telegram-Bot-Api-Secret-Token", "s3cret_s3cret");
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            WebhookRoute.Response r = receiver.handle(new WebhookRoute.Request(headers, bytes, "127.0.0.1"));
            assertThat(r.status()).as(body).isEqualTo(200);
        }
        assertThat(sink.accepted).isEmpty();
        assertThat(sink.unreadable).hasSize(3);
        assertThat(sink.unreadable.getFirst().platformRef()).isEqualTo("41");
        assertThat(sink.unreadable.get(1).reason()).contains("not JSON");
    }

    private static ObjectNode update(long id, ObjectNode message) {
        ObjectNode u = BotApi.JSON.createObjectNode().put("update_id", id);
        u.set("message", message);
        return u;
    }
}
