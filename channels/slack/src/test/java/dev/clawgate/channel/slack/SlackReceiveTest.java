package dev.clawgate.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SocketListenerProofs;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import dev.clawgate.testkit.slack.EventDelivery;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackSignature;
import dev.clawgate.testkit.slack.SlackUser;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The receive side over the fake Slack: Events API and Socket Mode (SPEC CH-4, IN-1, IN-3, IN-4, IN-5, CH-0). */
class SlackReceiveTest {
    private FakeSlack slack;
    private dev.clawgate.channel.slack.SlackChannel channel;
    private final RecordingInbox inbox = new RecordingInbox();
    private SlackFixture.RouteServer server;
    private SlackUser alice;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        alice = slack.user("alice");
        slack.eventRetryDelays(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(50));
    }

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        if (server != null) server.close();
        slack.close();
    }

    private void events() throws Exception {
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(2)));
        channel.start(inbox);
        server = new SlackFixture.RouteServer(channel.webhookRoutes().getFirst());
        slack.deliverEventsTo(server.url());
    }

    private final AtomicLong ts = new AtomicLong(1_700_000_000L);

    private byte[] callback(String text) {
        long t = ts.incrementAndGet();
        return ("{\"type\":\"event_callback\",\"event_id\":\"Ev" + t
                        + "\",\"team_id\":\"T1\",\"event\":{\"type\":\"message\",\"channel\":\"D0ALICE\","
                        + "\"channel_type\":\"im\",\"user\":\"U0ALICE\",\"text\":\"" + text + "\",\"ts\":\"" + t
                        + ".000100\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> signedRequestsAreTakenAndEveryOtherIsRefusedAndCounted() {
        // SPEC IN-5, CH-4: v0 HMAC-SHA256 over v0:<timestamp>:<body>, checked with the signing secret
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(2)));
        channel.start(inbox);
        SlackSignature right = new SlackSignature(slack.signingSecret());
        SlackSignature wrong = new SlackSignature("another-signing-secret");
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        b -> headers(right, b),
                        b -> headers(wrong, b),
                        this::callback,
                        inbox,
                        channel::rejectedRequests)
                .tests();
    }

    private static Map<String, String> headers(SlackSignature s, byte[] body) {
        long now = System.currentTimeMillis() / 1000;
        return Map.of(
                SlackSignature.TIMESTAMP_HEADER,
                Long.toString(now),
                SlackSignature.SIGNATURE_HEADER,
                s.sign(now, body));
    }

    @Test
    void aStaleTimestampAndABadSignatureAreRefusedCountedAndNeverStored() throws Exception {
        // SPEC IN-5, CH-4: a request signed right but more than 5 minutes old is a replay; 401, counted, not stored
        events();
        SlackSignature right = new SlackSignature(slack.signingSecret());
        byte[] body = callback("replayed");
        long stale = System.currentTimeMillis() / 1000 - 6 * 60;
        assertThat(slack.pushOnce(body, stale, right.sign(stale, body)).status())
                .isEqualTo(401);
        long now = System.currentTimeMillis() / 1000;
        assertThat(slack.pushOnce(body, now, "v0=" + "0".repeat(64)).status()).isEqualTo(401);
        assertThat(slack.pushOnce(body, now, null).status()).isEqualTo(401);
        assertThat(channel.rejectedRequests()).isEqualTo(3);
        assertThat(inbox.handOvers()).isZero();
        assertThat(slack.pushOnce(body, now, right.sign(now, body)).status()).isEqualTo(200);
        assertThat(inbox.texts()).containsExactly("replayed");
    }

    @Test
    void theRequestUrlIsVerified() throws Exception {
        // SPEC CH-4: url_verification answered with its challenge
        events();
        assertThat(slack.verifyRequestUrl()).isTrue();
    }

    @Test
    void aDirectMessageIsOneDirectTurnAndARetryOfItIsADuplicate() throws Exception {
        // SPEC IN-1, CH-4: Slack's retry of one event (X-Slack-Retry-Num) is the same message
        events();
        SlackChannel dm = slack.dm(alice);
        String t = slack.post(dm, alice, "hello &lt;there&gt;");
        await().until(() -> inbox.messages().size() == 1);
        String eventId = slack.events().getLast().path("event_id").asText();
        slack.redeliver(eventId);
        await().until(() -> inbox.handOvers() == 2);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(inbox.messages()).hasSize(1);
        assertThat(m.id()).isEqualTo(dm.id() + ":" + t);
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.sender()).isEqualTo(alice.id());
        assertThat(m.threadId()).isNull();
    }

    @Test
    void aMentionSentAsMessageAndAppMentionIsOneMessageInEitherOrder() throws Exception {
        // SPEC IN-1, CH-4: the message + app_mention pair (two event ids, one channel and ts) is one message, mentioned
        events();
        SlackChannel general = slack.channel("general");
        for (boolean mentionFirst : new boolean[] {false, true}) {
            slack.mentionBeforeMessage(mentionFirst);
            int before = inbox.handOvers();
            String t = slack.post(general, alice, slack.bot().mention() + " what is up? " + mentionFirst);
            await().until(() -> inbox.handOvers() == before + 2);
            assertThat(inbox.messages())
                    .filteredOn(m -> m.id().equals(general.id() + ":" + t))
                    .singleElement()
                    .satisfies(m -> {
                        assertThat(m.mentioned()).isTrue();
                        assertThat(m.chatType()).isEqualTo(ChatType.GROUP);
                        assertThat(m.text()).isEqualTo("@clawbot what is up? " + mentionFirst);
                    });
        }
        assertThat(inbox.messages()).hasSize(2);
    }

    @Test
    void aChannelMessageWithoutAMentionIsNotMentionedAndAThreadReplyCarriesItsThread() throws Exception {
        // SPEC IN-5 (require_mention decides on mentioned), IN-1 (a thread is one session: thread_ts)
        events();
        SlackChannel general = slack.channel("general");
        String root = slack.post(general, alice, "just chatting");
        String reply = slack.reply(general, root, alice, "in the thread");
        await().until(() -> inbox.messages().size() == 2);
        InboundMessage top = inbox.messages().stream()
                .filter(m -> m.id().equals(general.id() + ":" + root))
                .findFirst()
                .orElseThrow();
        assertThat(top.mentioned()).isFalse();
        assertThat(top.threadId()).isNull();
        InboundMessage threaded = inbox.messages().stream()
                .filter(m -> m.id().equals(general.id() + ":" + reply))
                .findFirst()
                .orElseThrow();
        assertThat(threaded.id()).isEqualTo(general.id() + ":" + reply);
        assertThat(threaded.threadId()).isEqualTo(root);
        assertThat(threaded.scopeId()).isEqualTo(general.id() + ":" + root);
    }

    @Test
    void editsDeletionsAndBotsMessagesStartNoTurn() throws Exception {
        // SPEC CH-4: no loops on bots' messages; edits and deletions are not new messages
        events();
        SlackChannel dm = slack.dm(alice);
        String t = slack.post(dm, alice, "original");
        await().until(() -> inbox.messages().size() == 1);
        slack.edit(dm, t, "edited");
        slack.delete(dm, t);
        SlackChannel general = slack.channel("general");
        SlackUser other = slack.otherBot("otherbot");
        slack.post(general, other, slack.bot().mention() + " hi from a bot");
        slack.post(dm, alice, "after");
        await().until(() -> inbox.texts().contains("after"));
        await().until(() ->
                slack.deliveries().stream().filter(EventDelivery::accepted).count() >= 5);
        assertThat(inbox.texts()).containsExactlyInAnyOrder("original", "after");
    }

    @TestFactory
    Stream<DynamicTest> socketModeTakesEveryEnvelopeOnceAcrossDropsAndRestarts() {
        // SPEC CH-0, CH-4, IN-3: envelopes acked after the inbox commit; a dropped socket reconnects; a restart takes
        // up again
        slack.useSocketMode();
        slack.eventAckTimeout(Duration.ofMillis(500));
        SlackChannel dm = slack.dm(alice);
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.SOCKET, false, Duration.ofSeconds(2)));
        SocketListenerProofs.SocketPlatform platform = new SocketListenerProofs.SocketPlatform() {
            @Override
            public void push(String text) {
                slack.post(dm, alice, text);
            }

            @Override
            public void dropConnections() {
                slack.dropSockets();
            }

            @Override
            public int connectionsOpened() {
                return slack.calls("apps.connections.open").size();
            }
        };
        return SocketListenerProofs.of(channel, platform, inbox, Duration.ofSeconds(15))
                .tests();
    }

    @Test
    void aSocketModeRefreshOpensANewConnectionAndEveryEnvelopeIsAcked() throws Exception {
        // SPEC CH-4: Slack's disconnect (refresh_requested) is followed by a new connection; nothing is lost or doubled
        slack.useSocketMode();
        slack.eventAckTimeout(Duration.ofMillis(500));
        SlackChannel dm = slack.dm(alice);
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.SOCKET, false, Duration.ofSeconds(2)));
        channel.start(inbox);
        await().until(() -> slack.openSockets() == 1);
        slack.post(dm, alice, "before refresh");
        await().until(() -> inbox.texts().contains("before refresh"));
        slack.disconnectSockets("refresh_requested", Duration.ofMillis(100));
        await().until(() -> slack.calls("apps.connections.open").size() == 2);
        slack.post(dm, alice, "after refresh");
        await().until(() -> inbox.texts().contains("after refresh") && slack.unacknowledgedEnvelopes() == 0);
        assertThat(inbox.texts()).containsExactly("before refresh", "after refresh");
        assertThat(slack.calls())
                .filteredOn(c -> c.method().equals("socket ack"))
                .allSatisfy(c -> assertThat(c.headers().get("known")).isEqualTo("true"));
    }

    @Test
    void anEventThatCannotBeReadIsKeptAsFailedAndAnswered200() throws Exception {
        // SPEC IN-4, CH-0: a poison event is recorded as unreadable and answered 200, so Slack does not send it for
        // ever
        java.util.List<dev.clawgate.core.store.UnreadableInbound> kept =
                new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.clawgate.core.channel.InboundSink sink = new dev.clawgate.core.channel.InboundSink() {
            @Override
            public Acceptance accept(InboundMessage message) {
                return inbox.accept(message);
            }

            @Override
            public void unreadable(dev.clawgate.core.store.UnreadableInbound update) {
                kept.add(update);
            }
        };
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(2)));
        channel.start(sink);
        server = new SlackFixture.RouteServer(channel.webhookRoutes().getFirst());
        slack.deliverEventsTo(server.url());
        byte[] body =
                ("{\"type\":\"event_callback\",\"event_id\":\"EvPOISON\",\"event\":{\"type\":\"message\",\"channel\":"
                                + "\"D0ALICE\","
                                + "\"user\":\"U0ALICE\",\"text\":\"no ts\",\"ts\":\"yesterday\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        long now = System.currentTimeMillis() / 1000;
        assertThat(slack.pushOnce(body, now, new SlackSignature(slack.signingSecret()).sign(now, body))
                        .status())
                .isEqualTo(200);
        assertThat(kept).singleElement().satisfies(u -> {
            assertThat(u.platformRef()).isEqualTo("EvPOISON");
            assertThat(u.reason()).contains("ts");
        });
        assertThat(inbox.handOvers()).isZero();
    }
}
