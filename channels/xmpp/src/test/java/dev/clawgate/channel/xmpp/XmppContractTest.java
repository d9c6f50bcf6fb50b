package dev.clawgate.channel.xmpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCallLog;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SendIdentityProofs;
import dev.clawgate.testkit.xmpp.Prosody;
import dev.clawgate.testkit.xmpp.XmppUser;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The XMPP adapter's capability proofs (SPEC OUT-4, CH-8) against Debian's prosody: what a second Smack client received
 * through the server is the platform's record. The bot sends only to that user, so the record is read once every
 * message the bot sent has arrived.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class XmppContractTest {
    private Prosody server;
    private XmppChannel channel;
    private XmppUser user;
    private PlatformCallLog log;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong turns = new AtomicLong(100);
    private final AtomicInteger sent = new AtomicInteger();

    @BeforeAll
    void start() {
        server = Prosody.start("bot:botpass", "alice:alicepass");
        channel = new XmppChannel(XmppSettings.of(settings(server)));
        channel.start(inbox);
        await().atMost(Duration.ofSeconds(30)).until(() -> channel.health().healthy());
        user = XmppUser.connect(server, "alice", "alicepass");
        log = () -> {
            await().atMost(Duration.ofSeconds(20)).until(() -> user.calls().size() >= sent.get());
            return user.calls();
        };
    }

    static ChannelSettings settings(Prosody server, String... more) {
        Map<String, String> o = new java.util.HashMap<>(Map.of(
                "jid",
                server.jid("bot"),
                "password",
                "botpass",
                "host",
                server.host(),
                "port",
                Integer.toString(server.port()),
                "tls",
                "none",
                "nick",
                "clawbot"));
        for (int i = 0; i + 1 < more.length; i += 2) o.put(more[i], more[i + 1]);
        return new ChannelSettings("xmpp", AccessSettings.defaults(), Map.of(), o);
    }

    @AfterAll
    void stop() {
        channel.stop();
        user.close();
        server.close();
    }

    private OutboundMessage toAlice(String text) {
        return new OutboundMessage(
                new OutboundTarget("xmpp", "default", user.jid(), null, null),
                text,
                OutboundMessage.Kind.FINAL,
                turns.getAndIncrement());
    }

    private MessageReceipt send(OutboundMessage m) throws dev.clawgate.core.outbound.DeliveryException {
        sent.incrementAndGet();
        return channel.messageAdapter().send(m, CancelToken.none());
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(channel.messageAdapter().capabilities(), channel.ackPolicies(), log)
                .prove(Capability.TEXT, p -> {
                    // SPEC OUT-4, CH-8: one chat message, plain text as written, its stanza id in the receipt
                    MessageReceipt r = send(toAlice("hello *alice*\nsecond line"));
                    p.verify(calls -> {
                        assertThat(calls).singleElement().satisfies(c -> {
                            assertThat(c.method()).isEqualTo("chat");
                            assertThat(c.body()).isEqualTo("hello *alice*\nsecond line");
                            assertThat(c.headers()).containsEntry("id", r.primaryId());
                            assertThat(c.headers().get("from")).startsWith(server.jid("bot") + "/");
                        });
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    // SPEC RP-1: what the hook decided is exactly what reaches the user
                    SendingHook hook = (t, where) -> new SendingHook.Send(t.replace("sk-secret", "[redacted]"));
                    OutboundMessage m = toAlice("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending(m.text(), m.target())).text();
                    send(m.withText(hooked));
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(c.body()).isEqualTo("the key is [redacted]")));
                })
                .prove(AckPolicy.MANUAL, p -> {
                    // SPEC IN-3: the message reaches the inbox; XMPP has no per-message ack to the sender, only the
                    // reply goes back
                    int before = inbox.messages().size();
                    user.say(server.jid("bot"), "is anyone there");
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> inbox.messages().size() == before + 1);
                    send(toAlice("yes"));
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(c.body()).isEqualTo("yes")));
                })
                .tests();
    }

    @Test
    void eachPayloadHasAStableStanzaIdSoAReplayIsRecognised() throws Exception {
        // SPEC OUT-5, OUT-8, CH-8: the stanza id follows from the payload's idempotency key
        dev.clawgate.core.channel.MessageAdapter counted = (m, cancel) -> send(m);
        SendIdentityProofs.withoutMessageIds(counted, () -> toAlice("one line " + turns.get()), log);
        assertThat(channel.messageAdapter().capabilities()).doesNotContain(Capability.RECONCILE_UNKNOWN_SEND);
    }

    @Test
    void formatGuidanceSaysPlainText() {
        // SPEC SP-1
        assertThat(channel.formatGuidance()).contains("plain text");
        assertThat(channel.name()).isEqualTo("xmpp");
    }
}
