package dev.clawgate.channel.telegram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two polling bots started and stopped one at a time, as a cluster elects them (SPEC OP-2, CH-0, CH-3): each bot's fake
 * Bot API sees the polls of that bot alone.
 */
class TelegramAccountListenersTest {
    @TempDir
    Path dir;

    private FakeTelegramServer botA;
    private FakeTelegramServer botB;
    private TelegramChannel channel;
    private final RecordingSink sink = new RecordingSink();

    @BeforeEach
    void start() {
        botA = FakeTelegramServer.start("1001:bot-a-token", "a_bot");
        botB = FakeTelegramServer.start("1002:bot-b-token", "b_bot");
        channel = new TelegramChannel(
                List.of(account("a", "1001:bot-a-token", botA), account("b", "1002:bot-b-token", botB)), dir);
    }

    @AfterEach
    void stop() {
        channel.stop();
        botA.close();
        botB.close();
    }

    private static TelegramAccount account(String id, String token, FakeTelegramServer tg) {
        return new TelegramAccount(
                id,
                token,
                URI.create(tg.apiBase()),
                TelegramAccount.Mode.POLLING,
                null,
                null,
                TelegramSettings.DEFAULT_PATH,
                TelegramAccount.MAX_TEXT,
                false,
                false,
                TelegramFixture.PREVIEW_INTERVAL,
                AckPolicy.AFTER_RECEIVE_RECORD);
    }

    private void receive(FakeTelegramServer bot, String text) {
        TelegramUser user = bot.user(7, "ann");
        TelegramChat dm = bot.privateChat(user);
        bot.sendText(dm, user, text);
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.texts().contains(text));
    }

    @Test
    void eachBotPollsOnlyOnceItsOwnAccountIsStartedAndStopsWithoutTheOther() {
        // SPEC OP-2, CH-0: both bots pull, each on its own
        assertThat(channel.accounts()).containsExactly("a", "b");
        assertThat(channel.pulls("a")).isTrue();
        channel.startAccount("a", sink);
        receive(botA, "to a 1");
        assertThat(botB.calls()).as("bot b was not started").isEmpty();
        assertThat(channel.health("b")).isEqualTo(ChannelHealth.down("not started"));
        assertThat(channel.health()).isEqualTo(ChannelHealth.UP);

        channel.startAccount("b", sink);
        receive(botB, "to b 1");
        channel.stopAccount("a");
        int pollsOfA = botA.calls("getUpdates").size();
        assertThat(channel.health("a")).isEqualTo(ChannelHealth.down("not started"));
        botA.sendText(botA.privateChat(botA.user(7, "ann")), botA.user(7, "ann"), "to a 2, while stopped");
        receive(botB, "to b 2");
        receive(botB, "to b 3");
        assertThat(botA.calls("getUpdates")).as("bot a stopped polling").hasSize(pollsOfA);
        assertThat(sink.texts()).doesNotContain("to a 2, while stopped");
        assertThat(sink.accepted)
                .filteredOn(m -> m.text().startsWith("to b"))
                .extracting(InboundMessage::account)
                .containsOnly("b");

        // SPEC IN-4: what came while it was stopped comes to its next listener
        channel.startAccount("a", sink);
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.texts().contains("to a 2, while stopped"));
        assertThat(sink.accepted)
                .filteredOn(m -> m.text().startsWith("to a"))
                .extracting(InboundMessage::account)
                .containsOnly("a");
        assertThat(botA.pollConflicts() + botB.pollConflicts()).isZero();
    }
}
