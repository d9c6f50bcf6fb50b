package dev.clawgate.channel.qq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SocketListenerProofs;
import dev.clawgate.testkit.qq.FakeQq;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The WebSocket gateway (SPEC CH-13, CH-0, IN-1, IN-4) against the fake's gateway. */
class QqGatewayTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    private FakeQq qq;
    private QqChannel channel;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() {
        qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET);
        channel = QqFixture.channel(QqFixture.account(qq, false), dir);
    }

    @AfterEach
    void stop() {
        channel.stop();
        qq.close();
    }

    @TestFactory
    Stream<DynamicTest> aDroppedConnectionIsResumedWithNothingLostOrDoubled() {
        // SPEC CH-13, CH-0, IN-4: pushes before and after a drop, and while stopped, each recorded once
        int[] n = {0};
        return SocketListenerProofs.of(
                        channel,
                        new SocketListenerProofs.SocketPlatform() {
                            @Override
                            public void push(String text) {
                                qq.c2cMessage("USER" + (n[0]++ % 3), text);
                            }

                            @Override
                            public void dropConnections() {
                                qq.dropConnections();
                            }

                            @Override
                            public int connectionsOpened() {
                                // counted once READY or RESUMED: a dispatch before it has no session to go to
                                return qq.readyConnections();
                            }
                        },
                        inbox,
                        WAIT)
                .tests();
    }

    private void started() {
        channel.start(inbox);
        await().atMost(WAIT).until(() -> qq.liveSessions() == 1);
    }

    @Test
    void identifyCarriesTheAccessTokenAndTheGroupAndC2cIntent() {
        // SPEC CH-13: op 2 Identify with "QQBot <token>" and intents 1 << 25, the URL from GET /gateway
        started();
        PlatformCall identify = qq.calls().stream()
                .filter(c -> c.method().equals("gateway.identify"))
                .findFirst()
                .orElseThrow();
        var d = QqFixture.json(identify.body());
        assertThat(d.path("token").asText()).startsWith("QQBot qq-token-");
        assertThat(d.path("intents").asLong() & (1 << 25)).isEqualTo(1 << 25);
        assertThat(qq.calls()).extracting(PlatformCall::method).contains("getAppAccessToken", "GET /gateway");
    }

    @Test
    void aGroupAtMessageAndADirectMessageAreReadWithTheirReplyTargets() {
        // SPEC CH-13, MD-1: a group @-message answers in the group (its group_openid), a C2C one as user:<openid>
        started();
        String g = qq.groupMessage("GROUPX", "MEMBERY", "hi all");
        String c = qq.c2cMessage("USERZ", "hi you");
        await().atMost(WAIT).until(() -> inbox.messages().size() == 2);
        InboundMessage group = inbox.messages().get(0);
        InboundMessage direct = inbox.messages().get(1);
        assertThat(group.id()).isEqualTo(g);
        assertThat(group.replyTarget()).isEqualTo("GROUPX");
        assertThat(group.sender()).isEqualTo("MEMBERY");
        assertThat(group.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(group.mentioned()).isTrue();
        assertThat(group.text()).isEqualTo("hi all");
        assertThat(direct.id()).isEqualTo(c);
        assertThat(direct.replyTarget()).isEqualTo("user:USERZ");
        assertThat(direct.chatType()).isEqualTo(ChatType.DIRECT);
    }

    @Test
    void aRedeliveredEventIsRecordedOnce() {
        // SPEC IN-1, CH-13: the same event dispatched again (a new seq) is dropped; the inbox holds it once
        started();
        String id = qq.c2cMessage("USERR", "only once please");
        await().atMost(WAIT).until(() -> inbox.messages().size() == 1);
        qq.redeliver(id);
        String next = qq.c2cMessage("USERR", "the next one");
        await().atMost(WAIT).until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(next)));
        assertThat(inbox.messages()).extracting(InboundMessage::id).containsExactly(id, next);
        assertThat(inbox.handOvers()).isEqualTo(2);
    }

    @Test
    void reconnectOpcodeResumesTheSession() {
        // SPEC CH-13: op 7 closes and resumes with session_id and seq; nothing pushed is lost
        started();
        int opened = qq.connectionsOpened();
        qq.askReconnect();
        await().atMost(WAIT).until(() -> qq.connectionsOpened() > opened && qq.liveSessions() == 1);
        String id = qq.c2cMessage("USERQ", "after reconnect");
        await().atMost(WAIT).until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
        assertThat(qq.calls()).extracting(PlatformCall::method).contains("gateway.resume");
    }

    @Test
    void aRevokedTokenIsFetchedAgainWhenTheGatewayRefusesIt() {
        // SPEC CH-13: close 4004 (token) fetches a new access token before connecting again; heartbeats every 0.5 s
        // (op 1 / op 11) also catch a drop the socket does not report
        qq.heartbeatInterval(Duration.ofMillis(500));
        started();
        long tokens = qq.calls().stream()
                .filter(c -> c.method().equals("getAppAccessToken"))
                .count();
        qq.invalidateTokens();
        qq.dropConnections();
        await().atMost(WAIT)
                .until(() -> qq.calls().stream()
                                        .filter(c -> c.method().equals("getAppAccessToken"))
                                        .count()
                                > tokens
                        && qq.liveSessions() == 1);
        String id = qq.c2cMessage("USERT", "with a new token");
        await().atMost(WAIT).until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
    }
}
