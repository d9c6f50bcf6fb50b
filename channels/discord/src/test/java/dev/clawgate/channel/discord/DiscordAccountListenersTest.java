package dev.clawgate.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import dev.clawgate.testkit.discord.GatewayConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two bots whose Gateway connections open and close one at a time, as a cluster elects them (SPEC OP-2, CH-0, CH-5):
 * each fake Discord sees the connection of its own bot alone.
 */
class DiscordAccountListenersTest {
    private FakeDiscord botA;
    private FakeDiscord botB;
    private DiscordChannel channel;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() {
        botA = DiscordFixture.fake();
        botB = DiscordFixture.fake();
        channel = new DiscordChannel(
                List.of(account("a", botA), account("b", botB)),
                Runnable::run,
                Duration.ofSeconds(10),
                Duration.ofSeconds(5),
                DiscordFixture.FAST,
                Scheduler.daemon("discord-test-preview"),
                DiscordFixture.PREVIEW_INTERVAL);
    }

    @AfterEach
    void stop() {
        channel.stop();
        botA.close();
        botB.close();
    }

    private static DiscordAccount account(String id, FakeDiscord discord) {
        return new DiscordAccount(
                id,
                discord.botToken(),
                URI.create(discord.apiBase()),
                null,
                true,
                DiscordAccount.MAX_TEXT,
                false,
                false);
    }

    private static long open(FakeDiscord discord) {
        return discord.gatewayConnections().stream()
                .filter(c -> c.closeCode() == -1)
                .count();
    }

    private void receive(FakeDiscord bot, String text) {
        DiscordUser ann = bot.user("ann");
        bot.send(bot.dm(ann), ann, text);
        await().atMost(Duration.ofSeconds(15)).until(() -> inbox.texts().contains(text));
    }

    @Test
    void eachBotConnectsOnlyOnceItsOwnAccountIsStartedAndClosesWithoutTheOther() {
        // SPEC OP-2, CH-0: both bots hold a Gateway connection, each on its own
        assertThat(channel.accounts()).containsExactly("a", "b");
        channel.startAccount("a", inbox);
        await().atMost(Duration.ofSeconds(15)).until(() -> channel.health("a").healthy());
        receive(botA, "to a 1");
        assertThat(botB.gatewayConnections()).as("bot b was not started").isEmpty();
        assertThat(channel.health("b")).isEqualTo(ChannelHealth.down("not started"));

        channel.startAccount("b", inbox);
        await().atMost(Duration.ofSeconds(15)).until(() -> channel.health("b").healthy());
        receive(botB, "to b 1");
        channel.stopAccount("a");
        await().atMost(Duration.ofSeconds(15)).until(() -> open(botA) == 0);
        assertThat(botA.gatewayConnections())
                .allSatisfy(c -> assertThat(c.closedByClient()).isTrue());
        receive(botB, "to b 2");
        assertThat(open(botB)).isEqualTo(1);
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().startsWith("to b"))
                .extracting(InboundMessage::account)
                .containsOnly("b");

        // SPEC CH-5: its session was kept, so the next start resumes it
        channel.startAccount("a", inbox);
        await().atMost(Duration.ofSeconds(15)).until(() -> channel.health("a").healthy());
        assertThat(botA.gatewayConnections().getLast())
                .extracting(GatewayConnection::path)
                .isEqualTo("/resume");
        receive(botA, "to a 2");
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().startsWith("to a"))
                .extracting(InboundMessage::account)
                .containsOnly("a");
    }
}
