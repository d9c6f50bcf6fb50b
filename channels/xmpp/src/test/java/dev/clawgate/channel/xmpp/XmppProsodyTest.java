package dev.clawgate.channel.xmpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.render.Chunker;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.xmpp.CuttableRelay;
import dev.clawgate.testkit.xmpp.Prosody;
import dev.clawgate.testkit.xmpp.XmppUser;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The XMPP channel against Debian's prosody (SPEC CH-8): direct chats, rooms (addressed lines only are turns), message
 * ids for dedupe, typing, long replies, and the connection lost two ways: cut under the client while the server keeps
 * the session (XEP-0198 resumption), and the server restarted (a fresh login that joins the rooms again). A second
 * Smack client is the user.
 */
class XmppProsodyTest {
    private static final String ROOM = "lounge@" + Prosody.MUC_DOMAIN;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong turns = new AtomicLong(1);
    private Prosody server;
    private XmppChannel channel;
    private XmppUser user;
    private CuttableRelay relay;

    @AfterEach
    void stop() {
        if (channel != null) channel.stop();
        if (user != null) user.close();
        if (relay != null) relay.close();
        if (server != null) server.close();
    }

    private void startBot(String... more) {
        channel = new XmppChannel(XmppSettings.of(XmppContractTest.settings(server, more)));
        channel.start(inbox);
        await().atMost(WAIT).until(() -> channel.health().healthy());
    }

    private void reply(String to, String text) throws DeliveryException {
        channel.messageAdapter()
                .send(
                        new OutboundMessage(
                                new OutboundTarget("xmpp", "default", to, null, null),
                                text,
                                OutboundMessage.Kind.FINAL,
                                turns.getAndIncrement()),
                        CancelToken.none());
    }

    private InboundMessage awaitInbound(String text) {
        await().atMost(WAIT)
                .until(() -> inbox.messages().stream().anyMatch(m -> m.text().equals(text)));
        return inbox.messages().stream()
                .filter(m -> m.text().equals(text))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aDirectMessageIsADirectTurnFromTheSendersBareJidAndTheReplyArrives() throws Exception {
        // SPEC CH-8, IN-5: the sender is the bare JID (what allowed_users lists); the reply is a chat message back
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot();
        user = XmppUser.connect(server, "alice", "alicepass");
        String id = user.say(server.jid("bot"), "what is the time?");
        InboundMessage in = awaitInbound("what is the time?");
        assertThat(in.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(in.mentioned()).isTrue();
        assertThat(in.sender()).isEqualTo("alice@localhost");
        assertThat(in.replyTarget()).isEqualTo("alice@localhost");
        assertThat(in.id()).isEqualTo("xmpp:alice@localhost:" + id);
        reply(in.replyTarget(), "it is noon");
        await().atMost(WAIT).until(() -> user.textsFrom(server.jid("bot")).contains("it is noon"));
    }

    @Test
    void theSameStanzaDeliveredTwiceKeepsOneIdSoTheInboxRecordsItOnce() {
        // SPEC IN-1: the id is the sender's stanza id, stable across a redelivery
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot();
        user = XmppUser.connect(server, "alice", "alicepass");
        user.sayWithId(server.jid("bot"), "once", "fixed-id-1");
        user.sayWithId(server.jid("bot"), "once", "fixed-id-1");
        user.say(server.jid("bot"), "marker");
        awaitInbound("marker");
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().equals("once"))
                .singleElement()
                .satisfies(m -> assertThat(m.id()).isEqualTo("xmpp:alice@localhost:fixed-id-1"));
    }

    @Test
    void inARoomOnlyLinesAddressedToTheNickAreTurnsAndTheRestIsContext() throws Exception {
        // SPEC CH-8, IN-5, IN-6: XEP-0045 join with the nick; "nick: ..." starts a turn, other lines are context
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot("rooms", ROOM);
        assertThat(channel.client().joinedRooms()).containsExactly(ROOM);
        user = XmppUser.connect(server, "alice", "alicepass");
        MultiUserChat muc = user.join(ROOM, "alice");
        user.sayInRoom(muc, "good morning everyone");
        user.sayInRoom(muc, "Clawbot, summarise please");
        InboundMessage context = awaitInbound("good morning everyone");
        InboundMessage addressed = awaitInbound("summarise please");
        assertThat(context.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(context.mentioned()).isFalse();
        assertThat(addressed.mentioned()).isTrue();
        assertThat(addressed.replyTarget()).isEqualTo(ROOM);
        assertThat(addressed.sender()).isEqualTo(ROOM + "/alice");
        reply(ROOM, "here is the summary");
        await().atMost(WAIT).until(() -> user.textsFrom(ROOM).contains("here is the summary"));
        // the bot's own line came back from the room and is not a turn
        assertThat(inbox.messages()).noneMatch(m -> m.text().equals("here is the summary"));
    }

    @Test
    void typingIsAComposingChatState() {
        // SPEC RP-5, CH-8: XEP-0085 composing, and the reply carries active
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot();
        user = XmppUser.connect(server, "alice", "alicepass");
        channel.messageAdapter().typing(new OutboundTarget("xmpp", "default", user.jid(), null, null));
        await().atMost(WAIT).until(() -> user.chatStates().contains("composing"));
    }

    @Test
    void aLongReplyArrivesAsMessagesWithinTheLimitInOrderWithNothingLost() throws Exception {
        // SPEC OUT-1, CH-8: payloads cut to text_limit, one message each, in order
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot("text_limit", "300");
        user = XmppUser.connect(server, "alice", "alicepass");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 120; i++) b.append("word").append(i).append(i % 10 == 9 ? "ü😀\n" : " ");
        String longText = b.toString().strip();
        List<String> payloads = Chunker.split(longText, channel.messageAdapter().chunkLimits());
        assertThat(payloads).hasSizeGreaterThan(2);
        for (String p : payloads) reply(user.jid(), p);
        await().atMost(WAIT).until(() -> user.textsFrom(server.jid("bot")).size() == payloads.size());
        List<String> got = user.textsFrom(server.jid("bot"));
        assertThat(got).allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(300));
        assertThat(String.join("", got).replaceAll("\\s", "")).isEqualTo(longText.replaceAll("\\s", ""));
    }

    @Test
    void aConnectionCutUnderTheClientIsResumedAndWhatWasSentMeanwhileArrives() throws Exception {
        // SPEC CH-0, CH-8: XEP-0198: prosody hibernates the session; the client resumes it and receives what waited
        server = Prosody.start("bot:botpass", "alice:alicepass");
        relay = CuttableRelay.to(server.host(), server.port());
        startBot("port", Integer.toString(relay.port()));
        user = XmppUser.connect(server, "alice", "alicepass");
        user.say(server.jid("bot"), "before the cut");
        awaitInbound("before the cut");
        assertThat(channel.client().connection().isSmEnabled()).isTrue();
        relay.cutAll();
        user.say(server.jid("bot"), "during the cut");
        await().atMost(WAIT)
                .until(() ->
                        channel.client().resumptions() == 1 && channel.health().healthy());
        awaitInbound("during the cut");
        reply(user.jid(), "back again");
        await().atMost(WAIT).until(() -> user.textsFrom(server.jid("bot")).contains("back again"));
        assertThat(channel.client().logins()).isEqualTo(1);
        assertThat(inbox.messages())
                .filteredOn(m -> m.text().equals("before the cut"))
                .hasSize(1);
    }

    @Test
    void prosodyRestartedMidConversationTheClientLogsInAgainRejoinsAndAnswers() throws Exception {
        // SPEC CH-0, CH-8: a server restart ends the session; the channel reconnects by itself with backoff
        server = Prosody.start("bot:botpass", "alice:alicepass");
        startBot("rooms", ROOM);
        user = XmppUser.connect(server, "alice", "alicepass");
        user.say(server.jid("bot"), "first question");
        awaitInbound("first question");
        server.restart();
        await().atMost(WAIT)
                .until(() -> !channel.health().healthy() || channel.client().logins() == 2);
        // while it is down a reply is refused as transient (the outbox keeps it), never dropped
        if (!channel.client().online()) {
            assertThatThrownBy(() -> reply(user.jid(), "too early"))
                    .isInstanceOf(DeliveryException.class)
                    .satisfies(e ->
                            assertThat(((DeliveryException) e).kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        }
        await().atMost(WAIT)
                .until(() -> channel.client().logins() == 2 && channel.health().healthy());
        assertThat(channel.client().joinedRooms()).containsExactly(ROOM);
        user.login();
        user.say(server.jid("bot"), "second question");
        awaitInbound("second question");
        reply(user.jid(), "second answer");
        await().atMost(WAIT).until(() -> user.textsFrom(server.jid("bot")).contains("second answer"));
        MultiUserChat muc = user.join(ROOM, "alice");
        user.sayInRoom(muc, "clawbot: still there?");
        assertThat(awaitInbound("still there?").mentioned()).isTrue();
    }

    @Test
    void doctorsProbeReachesTheServerAndNamesTheKeyWhenItCannot() {
        // SPEC OP-4
        server = Prosody.start("bot:botpass");
        XmppChannelFactory f = new XmppChannelFactory();
        assertThat(f.probe(XmppContractTest.settings(server)).ok()).isTrue();
        var bad = f.probe(XmppContractTest.settings(server, "port", "1"));
        assertThat(bad.ok()).isFalse();
        assertThat(bad.findings().getFirst().fix()).contains("channels.xmpp.host");
    }
}
