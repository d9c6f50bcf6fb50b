package dev.clawgate.channel.discord;

import static dev.clawgate.channel.discord.DiscordContractTest.bodies;
import static dev.clawgate.channel.discord.DiscordFixture.finalReply;
import static dev.clawgate.channel.discord.DiscordFixture.target;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordMessage;
import dev.clawgate.testkit.discord.DiscordRoutes;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import java.time.Duration;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * With {@code stream_mode = "preview"} (SPEC OUT-9): every capability the adapter then declares, proven against the
 * fake Discord. Previews run on a manual clock and make their calls on the test's thread, so each proof sees exactly
 * its calls.
 */
class DiscordPreviewContractTest {
    private static final long INTERVAL_MS = DiscordFixture.PREVIEW_INTERVAL.toMillis();
    private final ManualScheduler clock = new ManualScheduler();
    private FakeDiscord discord;
    private dev.clawgate.channel.discord.DiscordChannel channel;
    private DiscordMessageAdapter adapter;
    private int people;
    private long turn = 1000;

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    @BeforeEach
    void start() {
        discord = DiscordFixture.fake();
        channel = DiscordFixture.channel(
                DiscordFixture.account(discord, true, false, true), clock, Duration.ofMillis(1500));
        adapter = (DiscordMessageAdapter) channel.messageAdapter();
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

    private dev.clawgate.core.outbound.OutboundMessage reply(OutboundTarget t, String text) {
        return finalReply(t, text, ++turn);
    }

    @TestFactory
    Stream<DynamicTest> everyPreviewCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), discord)
                .prove(Capability.TEXT, p -> {
                    DiscordChannel dm = newDm();
                    adapter.send(reply(target(dm, null), "plain **text**"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                    .getFirst()
                                    .path("content")
                                    .asText())
                            .isEqualTo("plain **text**"));
                    assertThat(discord.botMessages(dm)).hasSize(1);
                })
                .prove(Capability.REPLY_TO, p -> {
                    DiscordChannel general = discord.textChannel(discord.guild("g" + (++people)), "general");
                    String asked = discord.send(general, discord.user("asker" + people), "question");
                    adapter.send(reply(target(general, asked), "answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                    .getFirst()
                                    .path("message_reference")
                                    .path("message_id")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(discord.botMessages(general).getFirst().referencedId())
                            .isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    DiscordChannel general = discord.textChannel(discord.guild("t" + (++people)), "general");
                    DiscordUser u = discord.user("poster" + people);
                    String root = discord.send(general, u, "root");
                    DiscordChannel thread = discord.thread(general, root, "topic");
                    String inThread = discord.send(thread, u, "reply");
                    // SPEC OUT-9, CH-5: the draft itself goes into the thread, and the final edit keeps it there
                    OutboundTarget t = target(thread, inThread);
                    adapter.openStream(t).delta("thinking");
                    adapter.send(reply(t, "in the thread"), CancelToken.none());
                    p.verify(calls -> assertThat(calls.stream()
                                    .filter(c -> c.method().equals(DiscordRoutes.CREATE_MESSAGE))
                                    .map(c -> c.headers().get(":path"))
                                    .toList())
                            .containsExactly("/api/v10/channels/" + thread.id() + "/messages"));
                    assertThat(discord.botMessages(thread))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("in the thread");
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC RP-1: what the hook decided is exactly what Discord keeps, even over a streamed draft
                    OutboundTarget t = target(dm, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    ReplyStream stream = adapter.openStream(t);
                    stream.delta("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(reply(t, hooked), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.EDIT_MESSAGE)
                                    .getLast()
                                    .path("content")
                                    .asText())
                            .isEqualTo("the key is [redacted]"));
                    assertThat(discord.botMessages(dm))
                            .extracting(DiscordMessage::content)
                            .containsExactly("the key is [redacted]");
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-9: a ... draft at once; then at most one Edit Message per interval however many deltas
                    // come
                    OutboundTarget t = target(dm, null);
                    ReplyStream s = adapter.openStream(t);
                    assertThat(discord.botMessages(dm))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("...");
                    for (int i = 0; i < 20; i++) s.delta("word" + i + " ");
                    clock.advance(INTERVAL_MS - 1);
                    assertThat(discord.botMessages(dm).getFirst().content()).isEqualTo("...");
                    clock.advance(1);
                    assertThat(discord.botMessages(dm).getFirst().content())
                            .startsWith("word0 word1")
                            .contains("word19");
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                                .singleElement()
                                .satisfies(b ->
                                        assertThat(b.path("content").asText()).isEqualTo("..."));
                        assertThat(bodies(calls, DiscordRoutes.EDIT_MESSAGE)).hasSize(1);
                        // SPEC DI-5: the draft of a cancelled run is taken away
                        assertThat(calls.stream()
                                        .filter(c -> c.method().equals(DiscordRoutes.DELETE_MESSAGE))
                                        .toList())
                                .hasSize(1);
                    });
                    assertThat(discord.botMessages(dm)).isEmpty();
                })
                .prove(Capability.MEDIA, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-13, OUT-9: a reply with a file goes as one new message with it; the draft above it goes
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("drawing");
                    String draft = discord.botMessages(dm).getFirst().id();
                    java.nio.file.Path png =
                            java.nio.file.Files.write(dir.resolve("p.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    adapter.send(
                            DiscordFixture.withMedia(t, "the chart", ++turn, 0, png.toString()), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                        .getLast()
                                        .path("_files"))
                                .hasSize(1);
                        assertThat(calls.stream()
                                        .filter(c -> c.method().equals(DiscordRoutes.DELETE_MESSAGE))
                                        .map(c -> c.headers().get(":path"))
                                        .toList())
                                .singleElement()
                                .asString()
                                .endsWith("/messages/" + draft);
                    });
                    assertThat(discord.botMessages(dm)).singleElement().satisfies(m -> {
                        assertThat(m.content()).isEqualTo("the chart");
                        assertThat(m.attachments()).containsExactly("p.png");
                    });
                })
                .prove(Capability.BATCH, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-5, OUT-9, OUT-13: the text payload becomes the draft (final edit), the media payload
                    // after it a new message with the file
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("drawing");
                    String draft = discord.botMessages(dm).getFirst().id();
                    java.nio.file.Path png =
                            java.nio.file.Files.write(dir.resolve("q.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    long id = ++turn;
                    MessageReceipt text =
                            adapter.send(DiscordFixture.withMedia(t, "the chart", id, 0), CancelToken.none());
                    MessageReceipt media =
                            adapter.send(DiscordFixture.withMedia(t, "", id, 1, png.toString()), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls)
                                .extracting(c -> c.method())
                                .containsSubsequence(DiscordRoutes.EDIT_MESSAGE, DiscordRoutes.CREATE_MESSAGE);
                        assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                        .getLast()
                                        .path("_files"))
                                .hasSize(1);
                    });
                    assertThat(discord.botMessages(dm))
                            .extracting(m -> m.content() + ":" + m.attachments())
                            .containsExactly("the chart:[]", ":[q.png]");
                    assertThat(text.primaryId()).isEqualTo(draft);
                    assertThat(media.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.MEDIA);
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    DiscordChannel dm = newDm();
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("draft text");
                    adapter.send(reply(t, "the *final* answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                            .hasSize(1));
                    assertThat(discord.botMessages(dm))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("the *final* answer");
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    DiscordChannel dm = newDm();
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("thinking");
                    String draft = discord.botMessages(dm).getFirst().id();
                    adapter.send(reply(t, "**done**"), CancelToken.none());
                    p.verify(calls -> {
                        var edit = calls.stream()
                                .filter(c -> c.method().equals(DiscordRoutes.EDIT_MESSAGE))
                                .toList()
                                .getLast();
                        assertThat(edit.headers().get(":path")).endsWith("/messages/" + draft);
                        assertThat(DiscordContractTest.body(edit)
                                        .path("content")
                                        .asText())
                                .isEqualTo("**done**");
                    });
                    assertThat(discord.message(draft).edits()).isPositive();
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    DiscordChannel dm = newDm();
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("draft");
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    String draft = discord.botMessages(dm).getFirst().id();
                    p.verify(calls -> assertThat(calls.stream()
                                    .filter(c -> c.method().equals(DiscordRoutes.EDIT_MESSAGE))
                                    .toList()
                                    .getLast()
                                    .headers()
                                    .get(":path"))
                            .endsWith(draft));
                    assertThat(r.primaryId()).isEqualTo(draft);
                })
                .prove(Capability.NORMAL_FALLBACK, p -> {
                    DiscordChannel dm = newDm();
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("draft");
                    String draft = discord.botMessages(dm).getFirst().id();
                    discord.failNext(DiscordRoutes.EDIT_MESSAGE, 404, 10008, "Unknown Message");
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE)
                                        .getLast()
                                        .path("content")
                                        .asText())
                                .isEqualTo("final");
                        assertThat(calls.stream()
                                        .filter(c -> c.method().equals(DiscordRoutes.DELETE_MESSAGE))
                                        .toList()
                                        .getFirst()
                                        .headers()
                                        .get(":path"))
                                .endsWith(draft);
                    });
                    assertThat(discord.botMessages(dm))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("final");
                    assertThat(r.primaryId()).isNotEqualTo(draft);
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-9: an update waiting for the interval is dropped when the final reply comes, and none
                    // follows it
                    OutboundTarget t = target(dm, null);
                    ReplyStream s = adapter.openStream(t);
                    s.delta("first");
                    s.delta(" second, pending behind the interval");
                    adapter.send(reply(t, "final"), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    clock.advance(10 * INTERVAL_MS);
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.EDIT_MESSAGE))
                            .extracting(b -> b.path("content").asText())
                            .containsExactly("final"));
                    assertThat(discord.botMessages(dm))
                            .singleElement()
                            .extracting(DiscordMessage::content)
                            .isEqualTo("final");
                })
                .prove(Capability.RETAIN_ON_AMBIGUOUS_FAILURE, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-7, OUT-9: the final edit's answer is lost: the draft stands for the reply, nothing is
                    // posted again
                    OutboundTarget t = target(dm, null);
                    adapter.openStream(t).delta("draft");
                    String draft = discord.botMessages(dm).getFirst().id();
                    discord.delayNext(DiscordRoutes.EDIT_MESSAGE, Duration.ofSeconds(3));
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                            .hasSize(1));
                    assertThat(r.primaryId()).isEqualTo(draft);
                    assertThat(discord.botMessages(dm)).hasSize(1);
                })
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC OUT-7: proven in DiscordContractTest; here a reconcile inside the window finds the one
                    // message
                    var m = reply(target(dm, null), "sent once");
                    MessageReceipt sent = adapter.send(m, CancelToken.none());
                    var r = adapter.reconcileUnknownSend(m, CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, DiscordRoutes.CREATE_MESSAGE))
                            .hasSize(2));
                    assertThat(r)
                            .isInstanceOfSatisfying(
                                    dev.clawgate.core.outbound.Reconciliation.Found.class,
                                    f -> assertThat(f.receipt().primaryId()).isEqualTo(sent.primaryId()));
                    assertThat(discord.botMessages(dm)).hasSize(1);
                })
                .prove(dev.clawgate.core.channel.AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    DiscordChannel dm = newDm();
                    // SPEC IN-3: proven with a store failure in DiscordContractTest; here a message is recorded once
                    // over the Gateway
                    RecordingInbox inbox = new RecordingInbox();
                    channel.start(inbox);
                    try {
                        Awaitility.await()
                                .atMost(Duration.ofSeconds(10))
                                .until(() -> channel.health().healthy());
                        String id = discord.send(dm, dm.recipient(), "recorded first");
                        Awaitility.await()
                                .atMost(Duration.ofSeconds(10))
                                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
                        p.verify(calls -> assertThat(calls.stream()
                                        .filter(c -> c.method().equals("GATEWAY IDENTIFY"))
                                        .toList())
                                .hasSize(1));
                        assertThat(inbox.handOvers()).isEqualTo(1);
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
