package dev.clawgate.channel.discord;

import static dev.clawgate.channel.discord.DiscordFixture.finalReply;
import static dev.clawgate.channel.discord.DiscordFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordGuild;
import dev.clawgate.testkit.discord.DiscordMessage;
import dev.clawgate.testkit.discord.DiscordRoutes;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract (SPEC OUT-4, OUT-7, IN-3, CH-5): every declared capability and ack policy proven against the
 * fake Discord.
 */
class DiscordContractTest {
    @TempDir
    Path dir;

    private FakeDiscord discord;
    private dev.clawgate.channel.discord.DiscordChannel channel;
    private DiscordMessageAdapter adapter;
    private DiscordGuild guild;
    private int people;

    @BeforeEach
    void start() {
        discord = DiscordFixture.fake();
        guild = discord.guild("home");
        channel = DiscordFixture.channel(
                DiscordFixture.account(discord, false, false, true),
                dev.clawgate.core.run.Scheduler.daemon("discord-test"),
                Duration.ofMillis(1500));
        adapter = (DiscordMessageAdapter) channel.messageAdapter();
        adapter.nonceLog(new NonceLog(dir.resolve("discord/nonces")));
        // the first request warms the HTTP client and the fake (a cold start can outlast the short call timeout)
        adapter.typing(target(discord.dm(discord.user("warm-up")), null));
    }

    @AfterEach
    void stop() {
        channel.stop();
        discord.close();
    }

    private DiscordChannel newDm() {
        return discord.dm(discord.user("user" + (++people)));
    }

    static JsonNode body(PlatformCall call) {
        try {
            return DiscordApi.JSON.readTree(call.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    static List<JsonNode> bodies(List<PlatformCall> calls, String route) {
        return calls.stream()
                .filter(c -> c.method().equals(route))
                .map(DiscordContractTest::body)
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), discord)
                .prove(Capability.TEXT, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-4, CH-5: Markdown as written, a nonce enforced on every send, no mass mention
                    OutboundMessage m = finalReply(target(dm, null), "hello **world** @everyone", 11);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent =
                                bodies(calls, DiscordRoutes.CREATE_MESSAGE).getFirst();
                        assertThat(sent.path("content").asText()).isEqualTo("hello **world** @everyone");
                        assertThat(sent.path("nonce").asText())
                                .isEqualTo(CreateMessage.nonce(m))
                                .hasSizeLessThanOrEqualTo(25);
                        assertThat(sent.path("enforce_nonce").asBoolean()).isTrue();
                        assertThat(sent.path("allowed_mentions").path("parse").toString())
                                .isEqualTo("[\"users\"]");
                        assertThat(sent.has("message_reference")).isFalse();
                    });
                    DiscordMessage shown = discord.botMessages(dm).getFirst();
                    assertThat(r.primaryId()).isEqualTo(shown.id());
                    assertThat(r.parts()).hasSize(1);
                })
                .prove(Capability.MEDIA, p -> {
                    newDm();
                    // SPEC OUT-13, CH-5: a payload with a file is one Create Message, multipart: payload_json with the
                    // content, the reply, the nonce and attachments [{id, filename}], the file as files[0]; a URL is a
                    // link in the content
                    DiscordChannel general = discord.textChannel(guild, "media" + people);
                    String asked = discord.send(general, discord.user("asker" + people), "send me the chart");
                    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 7};
                    Path file = java.nio.file.Files.write(dir.resolve("chart.png"), png);
                    OutboundMessage m = DiscordFixture.withMedia(
                            target(general, asked),
                            "here **it** is",
                            21,
                            0,
                            file.toString(),
                            "https://example.com/map.png");
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent =
                                bodies(calls, DiscordRoutes.CREATE_MESSAGE).getFirst();
                        assertThat(sent.path("content").asText())
                                .isEqualTo("here **it** is\nhttps://example.com/map.png");
                        assertThat(sent.path("attachments").toString())
                                .isEqualTo("[{\"id\":0,\"filename\":\"chart.png\"}]");
                        assertThat(sent.path("_files").toString())
                                .isEqualTo("[{\"field\":\"files[0]\",\"filename\":\"chart.png\",\"size\":9}]");
                        assertThat(sent.path("nonce").asText()).isEqualTo(CreateMessage.nonce(m));
                        assertThat(sent.path("enforce_nonce").asBoolean()).isTrue();
                        assertThat(sent.path("message_reference")
                                        .path("message_id")
                                        .asText())
                                .isEqualTo(asked);
                    });
                    DiscordMessage shown = discord.botMessages(general).getFirst();
                    assertThat(discord.botMessages(general)).hasSize(1);
                    assertThat(shown.attachments()).containsExactly("chart.png");
                    assertThat(discord.attachmentBytes(shown.id(), 0)).isEqualTo(png);
                    assertThat(r.primaryId()).isEqualTo(shown.id());
                    assertThat(r.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.MEDIA);
                    // a file over Discord's upload limit is refused before anything leaves (SPEC OUT-7)
                    Path big = java.nio.file.Files.write(
                            dir.resolve("big.png"), new byte[(int) DiscordUpload.MAX_FILE_BYTES + 1]);
                    int before = discord.calls(DiscordRoutes.CREATE_MESSAGE).size();
                    assertThatThrownBy(() -> adapter.send(
                                    DiscordFixture.withMedia(target(general, null), "", 22, 0, big.toString()),
                                    CancelToken.none()))
                            .isInstanceOfSatisfying(
                                    DeliveryException.class,
                                    e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
                    assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE)).hasSize(before);
                })
                .prove(Capability.BATCH, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-4, OUT-5, OUT-13: a reply's text payload and its media payload, in order, each one
                    // message with its own receipt and nonce
                    Path file = java.nio.file.Files.write(dir.resolve("b.png"), new byte[] {(byte) 0x89, 'P', 'N'});
                    OutboundTarget t = target(dm, null);
                    OutboundMessage textPart = DiscordFixture.withMedia(t, "the chart", 23, 0);
                    OutboundMessage mediaPart = DiscordFixture.withMedia(t, "", 23, 1, file.toString());
                    MessageReceipt text = adapter.send(textPart, CancelToken.none());
                    MessageReceipt media = adapter.send(mediaPart, CancelToken.none());
                    p.verify(calls -> {
                        List<JsonNode> sent = bodies(calls, DiscordRoutes.CREATE_MESSAGE);
                        assertThat(sent)
                                .extracting(b -> b.path("content").asText() + ":"
                                        + b.path("_files").size())
                                .containsExactly("the chart:0", ":1");
                        assertThat(sent)
                                .extracting(b -> b.path("nonce").asText())
                                .containsExactly(CreateMessage.nonce(textPart), CreateMessage.nonce(mediaPart))
                                .doesNotHaveDuplicates();
                    });
                    assertThat(discord.botMessages(dm))
                            .extracting(m -> m.content() + ":" + m.attachments())
                            .containsExactly("the chart:[]", ":[b.png]");
                    assertThat(text.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.TEXT);
                    assertThat(media.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.MEDIA);
                })
                .prove(Capability.REPLY_TO, p -> {
                    newDm();
                    // SPEC OUT-3, CH-5: the payload quoting the inbound message is a Discord reply to it
                    DiscordChannel general = discord.textChannel(guild, "general" + people);
                    String asked = discord.send(general, discord.user("asker" + people), "question");
                    MessageReceipt r =
                            adapter.send(finalReply(target(general, asked), "answer", 12), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                    .getFirst()
                                    .path("message_reference")
                                    .path("message_id")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(discord.botMessages(general))
                            .singleElement()
                            .satisfies(m -> assertThat(m.referencedId()).isEqualTo(asked));
                    assertThat(r.replyToId()).isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    newDm();
                    // SPEC CH-5: a thread is a channel: a message in it is answered in it
                    DiscordChannel general = discord.textChannel(guild, "threads" + people);
                    DiscordUser u = discord.user("poster" + people);
                    String root = discord.send(general, u, "root");
                    DiscordChannel thread = discord.thread(general, root, "topic");
                    String inThread = discord.send(thread, u, "in the thread");
                    MessageReceipt r = adapter.send(
                            finalReply(target(thread, inThread), "threaded answer", 13), CancelToken.none());
                    p.verify(calls -> assertThat(calls.stream()
                                    .filter(c -> c.method().equals(DiscordRoutes.CREATE_MESSAGE))
                                    .map(c -> c.headers().get(":path"))
                                    .toList())
                            .containsExactly("/api/v10/channels/" + thread.id() + "/messages"));
                    assertThat(discord.botMessages(thread))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("threaded answer");
                    assertThat(discord.botMessages(general)).isEmpty();
                    assertThat(r.threadId()).isEqualTo(thread.id());
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC RP-1: what the hook decided is exactly what reaches Discord
                    OutboundTarget t = target(dm, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked, 14), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                            .extracting(b -> b.path("content").asText())
                            .containsExactly("the key is [redacted]"));
                    assertThat(discord.botMessages(dm))
                            .extracting(DiscordMessage::content)
                            .containsExactly("the key is [redacted]");
                })
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-7: the answer to a Create Message is lost (it took effect); reconcile sends again with
                    // the same nonce inside Discord's window and gets the message Discord already has: one message,
                    // found
                    OutboundMessage m = finalReply(target(dm, null), "made once", 15);
                    discord.delayNext(DiscordRoutes.CREATE_MESSAGE, Duration.ofSeconds(3));
                    assertThatThrownBy(() -> adapter.send(m, CancelToken.none()))
                            .isInstanceOfSatisfying(
                                    DeliveryException.class,
                                    e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
                    Reconciliation r = adapter.reconcileUnknownSend(m, CancelToken.none());
                    String only = discord.botMessages(dm).getFirst().id();
                    assertThat(r)
                            .isInstanceOfSatisfying(
                                    Reconciliation.Found.class,
                                    f -> assertThat(f.receipt().primaryId()).isEqualTo(only));
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                            .extracting(b -> b.path("nonce").asText())
                            .containsExactly(CreateMessage.nonce(m), CreateMessage.nonce(m)));
                    assertThat(discord.botMessages(dm)).hasSize(1);
                    // a payload never attempted: the nonce log (forced to disk before every send) proves it was not
                    // sent
                    assertThat(adapter.reconcileUnknownSend(
                                    finalReply(target(dm, null), "never", 16), CancelToken.none()))
                            .isInstanceOf(Reconciliation.NotSent.class);
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    DiscordChannel dm = newDm();
                    DiscordUser alice = dm.recipient();
                    // SPEC IN-3, IN-4: the sequence advances only past a committed message: a store failure drops the
                    // connection and the Resume replays the message, recorded once
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    List<String> failedOnce = new CopyOnWriteArrayList<>();
                    InboundSink sink = m -> {
                        if (m.text().equals("hello") && failedOnce.isEmpty()) {
                            failedOnce.add(m.id());
                            throw new StoreException("store unavailable", null);
                        }
                        recorded.add(m);
                        return InboundSink.Acceptance.recorded(recorded.size());
                    };
                    channel.start(sink);
                    try {
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> channel.health().healthy());
                        String id = discord.send(dm, alice, "hello");
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(id)));
                        p.verify(calls -> assertThat(calls.stream()
                                        .filter(c -> c.method().equals("GATEWAY RESUME"))
                                        .toList())
                                .hasSize(1));
                        assertThat(recorded).filteredOn(m -> m.id().equals(id)).hasSize(1);
                        assertThat(failedOnce).containsExactly(id);
                        assertThat(discord.identifies()).isEqualTo(1);
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
