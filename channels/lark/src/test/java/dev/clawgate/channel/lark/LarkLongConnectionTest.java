package dev.clawgate.channel.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SocketListenerProofs;
import dev.clawgate.testkit.lark.FakeLark;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long connection ({@code mode = "websocket"}) against the fake's loopback WebSocket, which parses every frame the
 * channel sends with the protobuf runtime from the SDKs' pbbp2 schema (SPEC CH-11, CH-0, IN-1, IN-3).
 */
class LarkLongConnectionTest {
    @TempDir
    Path dir;

    private FakeLark lark;
    private LarkChannel channel;

    @BeforeEach
    void start() {
        lark = LarkFixture.fake(false);
    }

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        lark.close();
    }

    private LarkChannel websocketChannel(String secret) {
        LarkAccount a = new LarkAccount(
                LarkFixture.APP_ID,
                secret,
                "websocket",
                URI.create(lark.apiBase()),
                LarkSettings.DEFAULT_PATH,
                null,
                null,
                false,
                false,
                LarkAccount.DEFAULT_TEXT,
                Duration.ofSeconds(5));
        return new LarkChannel(
                a,
                dir,
                Clock.systemUTC(),
                Runnable::run,
                dev.clawgate.core.run.Scheduler.daemon("lark-test-preview"),
                LarkChannel.PREVIEW_INTERVAL,
                Duration.ofMillis(100));
    }

    private List<PlatformCall> calls(String name) {
        return lark.calls().stream().filter(c -> c.method().equals(name)).toList();
    }

    @TestFactory
    Stream<DynamicTest> theLongConnectionTakesEventsOnceAcrossDropsAndRestarts() {
        // SPEC CH-11, CH-0, IN-4: pushed events reach the inbox once; a dropped connection is opened again with
        // nothing lost or doubled; stopped and started, what was pushed meanwhile comes through
        RecordingInbox inbox = new RecordingInbox();
        channel = websocketChannel(LarkFixture.SECRET);
        AtomicInteger n = new AtomicInteger();
        SocketListenerProofs.SocketPlatform platform = new SocketListenerProofs.SocketPlatform() {
            @Override
            public void push(String text) {
                lark.userSendsText("ou_user" + n.incrementAndGet(), "oc_dm", "p2p", text);
            }

            @Override
            public void dropConnections() {
                lark.dropConnections();
            }

            @Override
            public int connectionsOpened() {
                return lark.connectionsOpened();
            }
        };
        return SocketListenerProofs.of(channel, platform, inbox, Duration.ofSeconds(15))
                .tests();
    }

    @Test
    void theDefaultModeNeedsNoPublicUrlAndAcksEachEventAfterItIsRecorded() throws Exception {
        // SPEC CH-11, IN-3 after_receive_record: no webhook route; the ack (code 200) follows the inbox commit
        RecordingInbox inbox = new RecordingInbox();
        AtomicInteger acceptsAtAck = new AtomicInteger(-1);
        channel = websocketChannel(LarkFixture.SECRET);
        assertThat(channel.webhookRoutes()).isEmpty();
        channel.start(inbox);
        await().atMost(Duration.ofSeconds(10)).until(() -> channel.health().healthy());
        String id = lark.userSendsText("ou_alice", "oc_dm", "p2p", "hello over the long connection");
        await().atMost(Duration.ofSeconds(10)).until(() -> !calls("ws.ack").isEmpty());
        acceptsAtAck.set(inbox.handOvers());
        assertThat(acceptsAtAck.get()).isEqualTo(1);
        assertThat(inbox.messages()).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo(id);
            assertThat(m.text()).isEqualTo("hello over the long connection");
        });
        PlatformCall ack = calls("ws.ack").getFirst();
        assertThat(ack.headers()).containsEntry("code", "200").containsKey("biz_rt");
        assertThat(ack.headers().get("delivery-id"))
                .isEqualTo(lark.deliveryIds().getFirst());
        assertThat(lark.unaccepted()).isEmpty();
        assertThat(calls("ws.bad_frame")).isEmpty();
        // the endpoint request carries the credentials, the log of it only the app id
        assertThat(calls("ws.endpoint")).allSatisfy(c -> assertThat(c.body()).doesNotContain(LarkFixture.SECRET));
    }

    @Test
    void anEventNotRecordedIsAnswered500AndTakenWhenThePlatformPushesItAgain() {
        // SPEC IN-3, IN-1: a store failure is never acked 200; the platform's second push is recorded, once
        RecordingInbox inbox = new RecordingInbox();
        AtomicInteger failures = new AtomicInteger(1);
        InboundSink flaky = m -> {
            if (failures.getAndDecrement() > 0) throw new StoreException("disk full", null);
            return inbox.accept(m);
        };
        channel = websocketChannel(LarkFixture.SECRET);
        channel.start(flaky);
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "keep me");
        await().atMost(Duration.ofSeconds(10)).until(() -> lark.unaccepted().isEmpty());
        assertThat(calls("ws.ack")).extracting(c -> c.headers().get("code")).containsExactly("500", "200");
        assertThat(inbox.texts()).containsExactly("keep me");
        assertThat(lark.pushAttempts(lark.deliveryIds().getFirst())).isEqualTo(2);
    }

    @Test
    void aRedeliveredEventIsAckedAgainButRecordedOnce() {
        // SPEC IN-1, CH-11: the same event_id pushed again is acked and not read a second time
        RecordingInbox inbox = new RecordingInbox();
        channel = websocketChannel(LarkFixture.SECRET);
        channel.start(inbox);
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "only once");
        await().atMost(Duration.ofSeconds(10)).until(() -> calls("ws.ack").size() == 1);
        lark.redeliver(lark.deliveryIds().getFirst());
        await().atMost(Duration.ofSeconds(10)).until(() -> calls("ws.ack").size() == 2);
        assertThat(calls("ws.ack")).allSatisfy(c -> assertThat(c.headers()).containsEntry("code", "200"));
        assertThat(inbox.handOvers()).isEqualTo(1);
        assertThat(inbox.texts()).containsExactly("only once");
    }

    @Test
    void anEventSplitOverSeveralFramesIsJoinedAndAckedOncePerFrameSet() {
        // SPEC CH-11: sum/seq parts of one message_id are joined before the event is read
        RecordingInbox inbox = new RecordingInbox();
        lark.framesPerEvent(3);
        channel = websocketChannel(LarkFixture.SECRET);
        channel.start(inbox);
        String text = "a long message ".repeat(200).strip();
        lark.userSendsText("ou_alice", "oc_dm", "p2p", text);
        await().atMost(Duration.ofSeconds(10)).until(() -> lark.unaccepted().isEmpty());
        assertThat(inbox.texts()).containsExactly(text);
        assertThat(calls("ws.ack")).hasSize(1);
    }

    @Test
    void theClientPingsOnItsServiceAtTheIntervalThePlatformSets() {
        // SPEC CH-11, CH-0: control frames type=ping on the URL's service_id, every PingInterval
        lark.clientConfig(1, 2, 0);
        channel = websocketChannel(LarkFixture.SECRET);
        channel.start(new RecordingInbox());
        await().atMost(Duration.ofSeconds(10)).until(() -> calls("ws.ping").size() >= 3);
        String service = calls("ws.ping").getFirst().headers().get(":service");
        assertThat(Integer.parseInt(service)).isPositive();
        assertThat(calls("ws.ping")).allSatisfy(c -> assertThat(c.headers()).containsEntry(":service", service));
        assertThat(calls("ws.bad_frame")).isEmpty();
    }

    @Test
    void aRefusedSecretLeavesTheChannelUnhealthyWithTheReasonAndNoConnection() {
        // SPEC CH-0: never silence: the endpoint's refusal shows in health; it is tried again with backoff
        channel = websocketChannel("wrong-secret");
        channel.start(new RecordingInbox());
        await().atMost(Duration.ofSeconds(10)).until(() -> calls("ws.endpoint").size() >= 2);
        assertThat(channel.health().healthy()).isFalse();
        assertThat(channel.health().detail()).contains("refused", "403");
        assertThat(lark.connectionsOpened()).isZero();
    }
}
