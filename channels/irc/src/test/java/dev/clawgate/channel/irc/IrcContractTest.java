package dev.clawgate.channel.irc;

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
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SendIdentityProofs;
import dev.clawgate.testkit.irc.IrcUser;
import dev.clawgate.testkit.irc.Ngircd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The IRC adapter's capability proofs (SPEC OUT-4, CH-7) against Debian's ngircd: what a second, raw-socket client
 * received through the server is the platform's record. The bot sends only to that user, so the record is read once
 * every line the bot wrote has arrived.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IrcContractTest {
    private Ngircd server;
    private IrcChannel channel;
    private IrcUser user;
    private PlatformCallLog log;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicLong turns = new AtomicLong(100);

    @BeforeAll
    void start() {
        server = Ngircd.start();
        Map<String, String> o =
                Map.of("server", server.host(), "port", Integer.toString(server.port()), "nick", "clawbot");
        channel = new IrcChannel(
                IrcSettings.of(new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), o)),
                new TokenBucket(50, Duration.ofMillis(5)));
        channel.start(inbox);
        await().atMost(Duration.ofSeconds(20)).until(() -> channel.health().healthy());
        user = IrcUser.connect(server, "alice");
        // every PRIVMSG the bot wrote has come through the server to alice before the record is read
        log = () -> {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> user.calls().size() >= channel.client().privmsgsWritten());
            return user.calls();
        };
    }

    @AfterAll
    void stop() {
        channel.stop();
        user.close();
        server.close();
    }

    private OutboundMessage toAlice(String text) {
        return new OutboundMessage(
                new OutboundTarget("irc", "default", "alice", null, null),
                text,
                OutboundMessage.Kind.FINAL,
                turns.getAndIncrement());
    }

    private static String text(PlatformCall call) {
        return call.body().substring(call.body().indexOf(" :", 1) + 2);
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(channel.messageAdapter().capabilities(), channel.ackPolicies(), log)
                .prove(Capability.TEXT, p -> {
                    // SPEC OUT-4, CH-7: one PRIVMSG to the query, Markdown flattened
                    channel.messageAdapter().send(toAlice("hello **alice**, see `x`"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls).hasSize(1);
                        assertThat(calls.getFirst().method()).isEqualTo("PRIVMSG");
                        assertThat(calls.getFirst().body())
                                .startsWith(":clawbot!")
                                .contains(" PRIVMSG alice :");
                        assertThat(text(calls.getFirst())).isEqualTo("hello alice, see x");
                    });
                })
                .prove(Capability.SPLITS_PAYLOADS, p -> {
                    // SPEC OUT-1, OUT-8: one payload, as many lines as it needs, each within 512 bytes, each in the
                    // receipt
                    String longLine = "ü".repeat(400);
                    MessageReceipt r = channel.messageAdapter().send(toAlice("first\n" + longLine), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls).hasSize(3);
                        assertThat(calls)
                                .allSatisfy(c -> assertThat(
                                                Integer.parseInt(c.headers().get("bytes")) + 2)
                                        .isLessThanOrEqualTo(512));
                        assertThat(text(calls.get(0))).isEqualTo("first");
                        assertThat(text(calls.get(1)) + text(calls.get(2))).isEqualTo(longLine);
                    });
                    assertThat(r.platformIds()).hasSize(3).doesNotHaveDuplicates();
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    // SPEC RP-1: what the hook decided is exactly what reaches the user
                    SendingHook hook = (t, where) -> new SendingHook.Send(t.replace("sk-secret", "[redacted]"));
                    OutboundMessage m = toAlice("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending(m.text(), m.target())).text();
                    channel.messageAdapter().send(m.withText(hooked), CancelToken.none());
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(text(c)).isEqualTo("the key is [redacted]")));
                })
                .prove(AckPolicy.MANUAL, p -> {
                    // SPEC IN-3: IRC has no acknowledgement; a line said reaches the inbox and nothing but the reply
                    // goes back
                    int before = inbox.messages().size();
                    user.say("clawbot", "is anyone there");
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> inbox.messages().size() == before + 1);
                    channel.messageAdapter().send(toAlice("yes"), CancelToken.none());
                    p.verify(calls -> assertThat(calls)
                            .singleElement()
                            .satisfies(c -> assertThat(text(c)).isEqualTo("yes")));
                })
                .tests();
    }

    @Test
    void withoutMessageIdsEachPayloadStillHasItsOwnStableIdentity() throws Exception {
        // SPEC OUT-5, OUT-8, CH-7: no message ids on plain IRC; the receipt's identity follows from the payload
        SendIdentityProofs.withoutMessageIds(channel.messageAdapter(), () -> toAlice("one line " + turns.get()), log);
        assertThat(channel.messageAdapter().capabilities()).doesNotContain(Capability.RECONCILE_UNKNOWN_SEND);
    }

    @Test
    void formatGuidanceSaysPlainText() {
        // SPEC SP-1
        assertThat(channel.formatGuidance()).contains("plain text");
        assertThat(List.of(channel.name())).containsExactly("irc");
    }
}
