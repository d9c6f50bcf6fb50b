package dev.clawgate.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackUser;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two Socket Mode apps started and stopped one at a time, as a cluster elects them (SPEC OP-2, CH-0, CH-4): each fake
 * workspace sees the connection of its own app alone.
 */
class SlackAccountListenersTest {
    private FakeSlack appA;
    private FakeSlack appB;
    private SlackChannel channel;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() {
        appA = FakeSlack.start("bot-a");
        appB = FakeSlack.start("bot-b");
        appA.useSocketMode();
        appB.useSocketMode();
        channel = new SlackChannel(
                List.of(account("a", appA), account("b", appB)),
                SlackFixture.MEDIA,
                Clock.systemUTC(),
                Runnable::run,
                Duration.ofSeconds(2),
                Duration.ofMillis(50),
                dev.clawgate.core.run.Scheduler.daemon("slack-test-preview"),
                SlackFixture.PREVIEW_INTERVAL);
    }

    @AfterEach
    void stop() {
        channel.stop();
        appA.close();
        appB.close();
    }

    private static SlackAccount account(String id, FakeSlack slack) {
        return new SlackAccount(
                id,
                slack.botToken(),
                slack.signingSecret(),
                slack.appToken(),
                SlackAccount.Mode.SOCKET,
                URI.create(slack.apiBase()),
                SlackSettings.DEFAULT_PATH,
                SlackAccount.MAX_TEXT,
                false,
                Duration.ofSeconds(2),
                false);
    }

    private void receive(FakeSlack app, String text) {
        SlackUser ann = app.user("ann");
        app.post(app.dm(ann), ann, text);
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.texts().contains(text));
    }

    @Test
    void eachAppConnectsOnlyOnceItsOwnAccountIsStartedAndClosesWithoutTheOther() {
        // SPEC OP-2, CH-0: both apps hold a socket, each on its own
        assertThat(channel.accounts()).containsExactly("a", "b");
        assertThat(channel.pulls("b")).isTrue();
        channel.startAccount("a", inbox);
        await().atMost(Duration.ofSeconds(10)).until(() -> appA.openSockets() == 1);
        receive(appA, "to a 1");
        assertThat(appB.calls()).as("app b was not started").isEmpty();
        assertThat(channel.health("b")).isEqualTo(ChannelHealth.down("not started"));

        channel.startAccount("b", inbox);
        await().atMost(Duration.ofSeconds(10)).until(() -> appB.openSockets() == 1);
        receive(appB, "to b 1");
        channel.stopAccount("a");
        await().atMost(Duration.ofSeconds(10)).until(() -> appA.openSockets() == 0);
        receive(appB, "to b 2");
        assertThat(appB.openSockets()).isEqualTo(1);
        assertThat(channel.health("a")).isEqualTo(ChannelHealth.down("not started"));
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().startsWith("to b"))
                .extracting(InboundMessage::account)
                .containsOnly("b");

        channel.startAccount("a", inbox);
        await().atMost(Duration.ofSeconds(10)).until(() -> appA.openSockets() == 1);
        receive(appA, "to a 2");
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().startsWith("to a"))
                .extracting(InboundMessage::account)
                .containsOnly("a");
    }
}
