package dev.clawgate.channel.slack;

import static dev.clawgate.channel.slack.SlackFixture.finalReply;
import static dev.clawgate.channel.slack.SlackFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackUser;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How sends fail on Slack (SPEC OUT-7, OUT-11, RP-5): never posted twice, rate limits per method, permanent errors. */
class SlackSendFailuresTest {
    private FakeSlack slack;
    private dev.clawgate.channel.slack.SlackChannel channel;
    private SlackMessageAdapter adapter;
    private SlackChannel dm;
    private SlackUser alice;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        alice = slack.user("alice");
        dm = slack.dm(alice);
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, true, Duration.ofMillis(500)));
        adapter = (SlackMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        slack.close();
    }

    @Test
    void aPostWhoseAnswerIsLateIsAmbiguousAndNeverSentAgain() throws Exception {
        // SPEC OUT-7: the post took effect but its answer came after the call timeout: unknown_after_send, one message
        slack.delayNext("chat.postMessage", Duration.ofSeconds(2));
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null, null), "only once"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
        Thread.sleep(2200);
        assertThat(slack.calls("chat.postMessage")).hasSize(1);
        assertThat(slack.botMessages(dm)).hasSize(1);
    }

    @Test
    void aShort429IsWaitedOutAndPostedOnceWhileALongOneHandsTheWaitBack() throws Exception {
        // SPEC OUT-7: 429 means Slack did not post; Retry-After is honoured for that method and channel
        slack.rateLimitNext("chat.postMessage", 1);
        adapter.send(finalReply(target(dm, null, null), "after the wait"), CancelToken.none());
        assertThat(slack.calls("chat.postMessage")).hasSize(2);
        assertThat(slack.botMessages(dm))
                .singleElement()
                .satisfies(m -> assertThat(m.text()).isEqualTo("after the wait"));

        slack.rateLimitNext("chat.postMessage", 30);
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null, null), "later"), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
                    assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(30));
                });
        int calls = slack.calls("chat.postMessage").size();
        // the method and channel stay limited: the next post waits without reaching Slack
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null, null), "still later"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.retryAfter()).isPositive());
        assertThat(slack.calls("chat.postMessage")).hasSize(calls);
        // another channel is not limited
        SlackChannel general = slack.channel("general");
        adapter.send(finalReply(target(general, null, null), "elsewhere"), CancelToken.none());
        assertThat(slack.botMessages(general)).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"invalid_auth", "channel_not_found", "not_in_channel", "account_inactive", "is_archived"})
    void permanentErrorsFailAtOnce(String error) {
        // SPEC OUT-7: these cannot succeed by retrying
        slack.failNext("chat.postMessage", error);
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null, null), "x"), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
                    assertThat(e.getMessage()).contains(error).doesNotContain(slack.botToken());
                });
    }

    @Test
    void aChannelWithoutTheBotIsPermanent() {
        // SPEC OUT-7: the fake answers not_in_channel for a channel the bot is not in
        SlackChannel closed = slack.channelWithoutBot("secret");
        assertThatThrownBy(() -> adapter.send(finalReply(target(closed, null, null), "x"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
    }

    @Test
    void aCancelledRunSendsNothing() {
        // SPEC OUT-11: an abort before the request leaves sends nothing
        CancelToken cancel = new CancelToken();
        cancel.cancel("/stop");
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null, null), "x"), cancel))
                .isInstanceOf(dev.clawgate.core.run.CancelledException.class);
        assertThat(slack.calls("chat.postMessage")).isEmpty();
    }

    @Test
    void ackReactionsGoFromEyesToTheOutcome() {
        // SPEC RP-5: eyes on receipt; then a check mark for done, a warning for failed; eyes taken away
        String done = slack.post(dm, alice, "one");
        String failed = slack.post(dm, alice, "two");
        OutboundTarget t1 = target(dm, null, done), t2 = target(dm, null, failed);
        adapter.received(t1);
        adapter.received(t2);
        await().until(() -> slack.message(dm, done).reactions().size() == 1
                && slack.message(dm, failed).reactions().size() == 1);
        assertThat(slack.message(dm, done).reactions())
                .singleElement()
                .satisfies(r -> assertThat(r).startsWith("eyes:"));
        adapter.settled(t1, InboxState.DONE);
        adapter.settled(t2, InboxState.FAILED);
        await().until(() -> slack.message(dm, done).reactions().stream().noneMatch(r -> r.startsWith("eyes"))
                && slack.message(dm, failed).reactions().stream().noneMatch(r -> r.startsWith("eyes")));
        assertThat(slack.message(dm, done).reactions())
                .singleElement()
                .satisfies(r -> assertThat(r).startsWith("white_check_mark:"));
        assertThat(slack.message(dm, failed).reactions())
                .singleElement()
                .satisfies(r -> assertThat(r).startsWith("warning:"));
    }
}
