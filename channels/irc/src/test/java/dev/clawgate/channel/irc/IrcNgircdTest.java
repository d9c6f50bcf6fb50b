package dev.clawgate.channel.irc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.irc.IrcUser;
import dev.clawgate.testkit.irc.Ngircd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The IRC channel against Debian's real ngircd, with a raw-socket client as the user (SPEC CH-7). */
class IrcNgircdTest {
    private static Ngircd server;
    private static final AtomicLong turns = new AtomicLong(1);
    private static int nicks;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void startServer() {
        server = Ngircd.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) c.close();
    }

    private static String fresh(String base) {
        return base + (++nicks);
    }

    IrcChannel channel(String nick, String channels, Map<String, String> extra, TokenBucket bucket) {
        Map<String, String> o = new HashMap<>(Map.of(
                "server", server.host(), "port", Integer.toString(server.port()), "nick", nick, "channels", channels));
        o.putAll(extra);
        IrcChannel c = new IrcChannel(
                IrcSettings.of(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o)), bucket);
        open.add(c::stop);
        return c;
    }

    IrcChannel started(String nick, String channels, RecordingInbox inbox) {
        IrcChannel c = channel(nick, channels, Map.of(), fast());
        c.start(inbox);
        await().atMost(Duration.ofSeconds(20)).until(() -> c.health().healthy());
        return c;
    }

    static TokenBucket fast() {
        return new TokenBucket(50, Duration.ofMillis(5));
    }

    IrcUser user(String nick) {
        IrcUser u = IrcUser.connect(server, nick);
        open.add(u);
        return u;
    }

    static OutboundMessage reply(String to, String text) {
        return new OutboundMessage(
                new OutboundTarget("irc", "default", to, null, null),
                text,
                OutboundMessage.Kind.FINAL,
                turns.getAndIncrement());
    }

    @Test
    void aQueryIsADirectMessageAndTheReplyReachesTheUser() throws Exception {
        // SPEC CH-7 (PRIVMSG in queries), IN-4 (handed to the inbox), OUT-4 (text)
        RecordingInbox inbox = new RecordingInbox();
        String bot = fresh("clawbot");
        IrcChannel c = started(bot, "", inbox);
        IrcUser alice = user(fresh("alice"));
        alice.say(bot, "hello there, bot");
        await().atMost(Duration.ofSeconds(20)).until(() -> !inbox.messages().isEmpty());
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.sender()).isEqualTo(alice.nick());
        assertThat(m.replyTarget()).isEqualTo(alice.nick());
        assertThat(m.mentioned()).isTrue();
        assertThat(m.text()).isEqualTo("hello there, bot");
        assertThat(m.id()).as("plain IRC has no message ids").isNull();

        MessageReceipt r = c.messageAdapter().send(reply(alice.nick(), "hi **alice**"), CancelToken.none());
        alice.await("the reply", l -> l.text().contains("PRIVMSG " + alice.nick() + " :hi alice"));
        assertThat(alice.texts(bot, alice.nick())).containsExactly("hi alice");
        assertThat(r.hasIdentity()).isTrue();
    }

    @Test
    void theLineBudgetIsTheServersOwnPrefixLearntFromTheWelcome() {
        // SPEC CH-7: 512 bytes including the prefix the server relays our lines with (ngircd: nick!~user@127.0.0.1)
        String bot = fresh("clawbot");
        IrcChannel c = started(bot, "", new RecordingInbox());
        String prefix = ":" + bot + "!~" + bot + "@127.0.0.1 PRIVMSG alice :";
        assertThat(c.client().overhead("alice")).isEqualTo(prefix.length() + 2);
    }

    @Test
    void doctorsProbeReachesTheServerOrSaysItCannot() throws Exception {
        // SPEC OP-4: the probe connects to the configured server
        Map<String, String> o = Map.of("server", server.host(), "port", Integer.toString(server.port()));
        assertThat(new IrcChannelFactory()
                        .probe(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o))
                        .ok())
                .isTrue();
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        var down = new IrcChannelFactory()
                .probe(new ChannelSettings(
                        "irc",
                        AccessSettings.defaults(),
                        Map.of(),
                        Map.of("server", "127.0.0.1", "port", Integer.toString(closed))));
        assertThat(down.ok()).isFalse();
        assertThat(down.toString()).contains("cannot reach the IRC server 127.0.0.1:" + closed);
    }

    @Test
    void inAChannelOnlyAddressedLinesAreMentionsAndTheRestIsContext() {
        // SPEC CH-7 (a turn only when addressed: "nick: ..." or "nick, ..."; else context), IN-5 (mention)
        RecordingInbox inbox = new RecordingInbox();
        String bot = fresh("clawbot");
        String room = "#" + fresh("room");
        IrcUser bob = user(fresh("bob"));
        bob.join(room);
        started(bot, room, inbox);
        bob.await(
                "the bot joined",
                l -> l.text().startsWith(":" + bot + "!") && l.text().contains(" JOIN "));
        bob.say(room, "the password is swordfish");
        bob.say(room, bot + ": what is the password?");
        bob.say(room, bot + ", thanks");
        await().atMost(Duration.ofSeconds(20)).until(() -> inbox.messages().size() == 3);
        List<InboundMessage> got = inbox.messages();
        assertThat(got).allSatisfy(m -> {
            assertThat(m.chatType()).isEqualTo(ChatType.GROUP);
            assertThat(m.replyTarget()).isEqualTo(room);
            assertThat(m.sender()).isEqualTo(bob.nick());
        });
        assertThat(got).extracting(InboundMessage::mentioned).containsExactly(false, true, true);
        assertThat(got)
                .extracting(InboundMessage::text)
                .containsExactly("the password is swordfish", "what is the password?", "thanks");
    }

    @Test
    void aTakenNickIsReplacedAndTheBotAnswersToItsNewNick() {
        // SPEC CH-7: nick collision (433) handled
        RecordingInbox inbox = new RecordingInbox();
        String bot = fresh("clawbot");
        String room = "#" + fresh("room");
        user(bot); // someone holds the bot's nick
        IrcUser carol = user(fresh("carol"));
        carol.join(room);
        IrcChannel c = started(bot, room, inbox);
        assertThat(c.client().nick()).isEqualTo(bot + "_");
        carol.await(
                "the bot joined",
                l -> l.text().startsWith(":" + bot + "_!") && l.text().contains(" JOIN "));
        carol.say(room, bot + "_: are you there?");
        await().atMost(Duration.ofSeconds(20)).until(() -> !inbox.messages().isEmpty());
        assertThat(inbox.messages().getFirst().mentioned()).isTrue();
        assertThat(inbox.messages().getFirst().text()).isEqualTo("are you there?");
    }

    @Test
    void kickedFromAChannelItJoinsAgain() {
        // SPEC CH-7: rejoin after KICK
        RecordingInbox inbox = new RecordingInbox();
        String bot = fresh("clawbot");
        String room = "#" + fresh("room");
        IrcUser op = user(fresh("op"));
        op.join(room); // the first in a channel is its operator
        started(bot, room, inbox);
        op.await(
                "the bot joined",
                l -> l.text().startsWith(":" + bot + "!") && l.text().contains(" JOIN "));
        op.send("KICK " + room + " " + bot + " :out");
        op.await("the kick", l -> l.text().contains(" KICK " + room + " " + bot));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> op.lines().stream()
                                .filter(l -> l.text().startsWith(":" + bot + "!")
                                        && l.text().contains(" JOIN "))
                                .count()
                        == 2);
        op.say(room, bot + ": back?");
        await().atMost(Duration.ofSeconds(20)).until(() -> inbox.texts().contains("back?"));
    }

    @Test
    void aLongReplyIsSplitIntoLinesOfAtMost512BytesWithUtf8IntactAndNothingLost() throws Exception {
        // SPEC CH-7, OUT-1: 512 bytes per relayed line including the prefix; UTF-8 never cut; code fences as lines
        RecordingInbox inbox = new RecordingInbox();
        String bot = fresh("clawbot");
        String room = "#" + fresh("room");
        IrcUser dave = user(fresh("dave"));
        dave.join(room);
        IrcChannel c = started(bot, room, inbox);
        dave.await(
                "the bot joined",
                l -> l.text().startsWith(":" + bot + "!") && l.text().contains(" JOIN "));
        StringBuilder prose = new StringBuilder();
        for (int i = 0; i < 60; i++) prose.append("wörd").append(i).append(" ünïcödé 🦀 ");
        String unbroken = "日本語".repeat(120); // 1080 bytes without a space: cut between characters
        String text = "**Summary**: " + prose.toString().strip() + "\n\n" + unbroken
                + "\n```\ncode line 1\n  code line 2\n```";
        MessageReceipt r = c.messageAdapter().send(reply(room, text), CancelToken.none());

        List<String> expected = ((IrcMessageAdapter) c.messageAdapter()).linesFor(room, text);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> dave.privmsgs(bot, room).size() == expected.size());
        List<IrcUser.RawLine> raw = dave.privmsgs(bot, room);
        assertThat(raw)
                .allSatisfy(l ->
                        assertThat(l.bytes() + 2).as("with CRLF: " + l.text()).isLessThanOrEqualTo(512));
        assertThat(raw)
                .as("the budget is used, not wasted")
                .anySatisfy(l -> assertThat(l.bytes() + 2).isGreaterThan(480));
        List<String> got = dave.texts(bot, room);
        assertThat(got).noneMatch(t -> t.contains("\uFFFD"));
        String flattened = "Summary: " + prose.toString().strip() + unbroken + "code line 1  code line 2";
        assertThat(String.join("", got).replace(" ", "")).isEqualTo(flattened.replace(" ", ""));
        assertThat(got.getLast()).isEqualTo("  code line 2");
        assertThat(got.get(got.size() - 2)).isEqualTo("code line 1");
        assertThat(r.platformIds()).hasSize(got.size());
    }

    @Test
    void theServerKilledAndRestartedTheClientReconnectsRejoinsAndReceivesAgain() throws Exception {
        // SPEC CH-0 (reconnect with backoff by itself), CH-7 (rejoin after reconnect)
        Ngircd own = Ngircd.start();
        open.add(own);
        RecordingInbox inbox = new RecordingInbox();
        String room = "#again";
        Map<String, String> o =
                Map.of("server", own.host(), "port", Integer.toString(own.port()), "nick", "clawbot", "channels", room);
        IrcChannel c = new IrcChannel(
                IrcSettings.of(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o)), fast());
        open.add(c::stop);
        c.start(inbox);
        await().atMost(Duration.ofSeconds(20)).until(() -> c.health().healthy());
        IrcUser erin = IrcUser.connect(own, "erin");
        erin.join(room);
        erin.say(room, "clawbot: before");
        await().atMost(Duration.ofSeconds(20)).until(() -> inbox.texts().contains("before"));
        erin.close();

        own.restart();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> c.connections() == 2 && c.health().healthy());
        IrcUser again = IrcUser.connect(own, "erin");
        open.add(again);
        again.join(room);
        again.await(
                "the bot joined again",
                l -> l.text().contains(" 353 ") && l.text().contains("clawbot"));
        again.say(room, "clawbot: after");
        await().atMost(Duration.ofSeconds(20)).until(() -> inbox.texts().contains("after"));
        c.messageAdapter().send(reply(room, "still here"), CancelToken.none());
        again.await("the answer after the restart", l -> l.text().contains("PRIVMSG " + room + " :still here"));
    }

    @Test
    void aSendCutMidwayIsUnknownAfterSendAndOneBeforeAnyLineIsTransient() throws Exception {
        // SPEC CH-7, OUT-7: a send cut after lines went out is ambiguous (unknown_after_send), never resent blindly
        Ngircd own = Ngircd.start();
        open.add(own);
        RecordingInbox inbox = new RecordingInbox();
        Map<String, String> o = Map.of("server", own.host(), "port", Integer.toString(own.port()), "nick", "clawbot");
        // one line at once, then one per 300 ms: the server dies while the reply is going out
        IrcChannel c = new IrcChannel(
                IrcSettings.of(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o)),
                new TokenBucket(1, Duration.ofMillis(300)));
        open.add(c::stop);
        c.start(inbox);
        await().atMost(Duration.ofSeconds(20)).until(() -> c.health().healthy());
        IrcUser frank = IrcUser.connect(own, "frank");
        open.add(frank);
        String text = String.join(
                "\n",
                java.util.stream.IntStream.range(0, 20)
                        .mapToObj(i -> "line " + i)
                        .toList());
        Thread.ofVirtual().start(() -> {
            frank.await("the first lines", l -> l.text().contains(":line 1"));
            own.kill();
        });
        assertThatThrownBy(() -> c.messageAdapter().send(reply("frank", text), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
                    assertThat(e.getMessage()).startsWith("unknown_after_send");
                });
        await().atMost(Duration.ofSeconds(10)).until(() -> !c.health().healthy());
        assertThatThrownBy(() -> c.messageAdapter().send(reply("frank", "nobody hears this"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
    }
}
