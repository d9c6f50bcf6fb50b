package dev.clawgate.channel.slack;

import static dev.clawgate.channel.slack.SlackFixture.finalReply;
import static dev.clawgate.channel.slack.SlackFixture.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackMessage;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * With {@code stream_mode = "preview"} (SPEC OUT-9): every capability the adapter then declares, proven against the
 * fake Slack. Previews run on a manual clock and make their calls on the test's thread, so each proof sees exactly the
 * calls it caused.
 */
class SlackPreviewContractTest {
    private static final long INTERVAL_MS = SlackFixture.PREVIEW_INTERVAL.toMillis();
    private final ManualScheduler clock = new ManualScheduler();
    private FakeSlack slack;
    private dev.clawgate.channel.slack.SlackChannel channel;
    private SlackMessageAdapter adapter;
    private int people;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(10), true), clock);
        adapter = (SlackMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        slack.close();
    }

    private SlackChannel newDm() {
        return slack.dm(slack.user("user" + (++people)));
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String method) {
        return calls.stream()
                .filter(c -> c.method().equals(method))
                .map(c -> {
                    try {
                        return SlackApi.JSON.readTree(c.body());
                    } catch (java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                })
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyPreviewCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), slack)
                .prove(Capability.TEXT, p -> {
                    SlackChannel dm = newDm();
                    adapter.send(finalReply(target(dm, null, null), "plain **text**"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage")
                                    .getFirst()
                                    .path("text")
                                    .asText())
                            .isEqualTo("plain *text*"));
                    assertThat(slack.botMessages(dm)).hasSize(1);
                })
                .prove(Capability.MEDIA, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-13, OUT-9: a reply with a file goes as one new message with it; the draft above it goes
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("drawing");
                    java.nio.file.Path png = java.nio.file.Files.write(
                            java.nio.file.Files.createTempDirectory("slack-pm").resolve("p.png"),
                            new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    adapter.send(
                            new OutboundMessage(
                                    t,
                                    "the chart",
                                    OutboundMessage.Kind.FINAL,
                                    1,
                                    List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                                    SendOptions.DEFAULT,
                                    0),
                            CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "files.completeUploadExternal")
                                        .getFirst()
                                        .path("initial_comment")
                                        .asText())
                                .isEqualTo("the chart");
                        assertThat(bodies(calls, "chat.delete")).hasSize(1);
                    });
                    assertThat(slack.botMessages(dm)).singleElement().satisfies(m -> {
                        assertThat(m.text()).isEqualTo("the chart");
                        assertThat(m.fileIds()).hasSize(1);
                    });
                })
                .prove(Capability.BATCH, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-4, OUT-9, OUT-13: the text payload takes the draft (finalEdit), the media payload
                    // follows it
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("drawing");
                    java.nio.file.Path png = java.nio.file.Files.write(
                            java.nio.file.Files.createTempDirectory("slack-pb").resolve("b.png"),
                            new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    MessageReceipt text = adapter.send(finalReply(t, "the chart"), CancelToken.none());
                    MessageReceipt media = adapter.send(
                            new OutboundMessage(
                                    t,
                                    "",
                                    OutboundMessage.Kind.FINAL,
                                    1,
                                    List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                                    SendOptions.DEFAULT,
                                    1),
                            CancelToken.none());
                    p.verify(calls -> assertThat(calls)
                            .extracting(PlatformCall::method)
                            .containsSubsequence(
                                    "chat.update", "files.getUploadURLExternal", "files.completeUploadExternal"));
                    assertThat(slack.botMessages(dm))
                            .extracting(m -> m.text() + ":" + m.fileIds().size())
                            .containsExactly("the chart:0", ":1");
                    assertThat(text.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.TEXT);
                    assertThat(media.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.MEDIA);
                })
                .prove(Capability.REPLY_TO, p -> {
                    SlackChannel general = slack.channel("general" + (++people));
                    String asked = slack.post(general, slack.user("asker" + people), "question");
                    adapter.send(finalReply(target(general, null, asked), "answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage")
                                    .getFirst()
                                    .path("thread_ts")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(slack.botMessages(general).getFirst().threadTs()).isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    SlackChannel general = slack.channel("thread" + (++people));
                    var u = slack.user("poster" + people);
                    String root = slack.post(general, u, "root");
                    String inThread = slack.reply(general, root, u, "reply");
                    // SPEC OUT-9, CH-4: the draft itself goes into the thread, and the final edit keeps it there
                    OutboundTarget t = target(general, root, inThread);
                    adapter.openStream(t).delta("thinking");
                    adapter.send(finalReply(t, "in the thread"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage")
                                    .getFirst()
                                    .path("thread_ts")
                                    .asText())
                            .isEqualTo(root));
                    assertThat(slack.botMessages(general)).singleElement().satisfies(m -> {
                        assertThat(m.threadTs()).isEqualTo(root);
                        assertThat(m.text()).isEqualTo("in the thread");
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    SlackChannel dm = newDm();
                    // SPEC RP-1: what the hook decided is exactly what Slack keeps, even over a streamed draft
                    OutboundTarget t = target(dm, null, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    ReplyStream stream = adapter.openStream(t);
                    stream.delta("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    p.verify(calls -> assertThat(bodies(calls, "chat.update")
                                    .getLast()
                                    .path("text")
                                    .asText())
                            .isEqualTo("the key is [redacted]"));
                    assertThat(slack.botMessages(dm))
                            .extracting(SlackMessage::text)
                            .containsExactly("the key is [redacted]");
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-9: a ... draft at once; then at most one chat.update per interval however many deltas
                    // come
                    OutboundTarget t = target(dm, null, null);
                    ReplyStream s = adapter.openStream(t);
                    assertThat(slack.botMessages(dm))
                            .singleElement()
                            .extracting(SlackMessage::text)
                            .isEqualTo("...");
                    for (int i = 0; i < 20; i++) s.delta("word" + i + " ");
                    clock.advance(INTERVAL_MS - 1);
                    assertThat(slack.botMessages(dm).getFirst().text()).isEqualTo("...");
                    clock.advance(1);
                    assertThat(slack.botMessages(dm).getFirst().text())
                            .startsWith("word0 word1")
                            .contains("word19");
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        assertThat(bodies(calls, "chat.postMessage"))
                                .singleElement()
                                .satisfies(
                                        b -> assertThat(b.path("text").asText()).isEqualTo("..."));
                        assertThat(bodies(calls, "chat.update")).hasSize(1);
                        // SPEC DI-5: the draft of a cancelled run is taken away
                        assertThat(bodies(calls, "chat.delete")).hasSize(1);
                    });
                    assertThat(slack.botMessages(dm)).isEmpty();
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    SlackChannel dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft text");
                    adapter.send(finalReply(t, "the *final* answer"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "chat.postMessage")).hasSize(1));
                    assertThat(slack.botMessages(dm))
                            .singleElement()
                            .extracting(SlackMessage::text)
                            .isEqualTo("the _final_ answer");
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    SlackChannel dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("thinking");
                    String draft = slack.botMessages(dm).getFirst().ts();
                    adapter.send(finalReply(t, "**done**"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode edit = bodies(calls, "chat.update").getLast();
                        assertThat(edit.path("ts").asText()).isEqualTo(draft);
                        assertThat(edit.path("text").asText()).isEqualTo("*done*");
                    });
                    assertThat(slack.message(dm, draft).edits()).isPositive();
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    SlackChannel dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    String draft = slack.botMessages(dm).getFirst().ts();
                    p.verify(calls -> assertThat(bodies(calls, "chat.update")
                                    .getLast()
                                    .path("ts")
                                    .asText())
                            .isEqualTo(draft));
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + draft);
                })
                .prove(Capability.NORMAL_FALLBACK, p -> {
                    SlackChannel dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    String draft = slack.botMessages(dm).getFirst().ts();
                    slack.failNext("chat.update", "message_not_found");
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "chat.postMessage")
                                        .getLast()
                                        .path("text")
                                        .asText())
                                .isEqualTo("final");
                        assertThat(bodies(calls, "chat.delete")
                                        .getFirst()
                                        .path("ts")
                                        .asText())
                                .isEqualTo(draft);
                    });
                    assertThat(slack.botMessages(dm))
                            .singleElement()
                            .extracting(SlackMessage::text)
                            .isEqualTo("final");
                    assertThat(r.primaryId()).isNotEqualTo(dm.id() + ":" + draft);
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-9: an update waiting for the interval is dropped when the final reply comes, and none
                    // follows it
                    OutboundTarget t = target(dm, null, null);
                    ReplyStream s = adapter.openStream(t);
                    s.delta("first");
                    s.delta(" second, pending behind the interval");
                    adapter.send(finalReply(t, "final"), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    clock.advance(10 * INTERVAL_MS);
                    p.verify(calls -> assertThat(bodies(calls, "chat.update"))
                            .extracting(b -> b.path("text").asText())
                            .containsExactly("final"));
                    assertThat(slack.botMessages(dm))
                            .singleElement()
                            .extracting(SlackMessage::text)
                            .isEqualTo("final");
                })
                .prove(Capability.RETAIN_ON_AMBIGUOUS_FAILURE, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-7, OUT-9: the final edit's answer is lost: the draft stands for the reply, nothing is
                    // posted again
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    String draft = slack.botMessages(dm).getFirst().ts();
                    slack.delayNext("chat.update", Duration.ofSeconds(15));
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "chat.postMessage")).hasSize(1));
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + draft);
                    assertThat(slack.botMessages(dm)).hasSize(1);
                })
                .prove(dev.clawgate.core.channel.AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    SlackChannel dm = newDm();
                    // SPEC IN-3: proven over HTTP in SlackContractTest; here the signed route answers 200 only once the
                    // message is recorded
                    var inbox = new dev.clawgate.testkit.contract.RecordingInbox();
                    channel.start(inbox);
                    try (var server =
                            new SlackFixture.RouteServer(channel.webhookRoutes().getFirst())) {
                        slack.deliverEventsTo(server.url());
                        String ts = slack.post(dm, slack.user("writer" + people), "recorded first");
                        // the bot's own earlier posts are pushed too (and ignored): wait for this one
                        org.awaitility.Awaitility.await()
                                .until(() ->
                                        inbox.messages().stream().anyMatch(m -> m.id().equals(dm.id() + ":" + ts)));
                        // the fake logs the route's answer once it has read it, a moment after the record is made
                        org.awaitility.Awaitility.await()
                                .untilAsserted(() -> p.verify(calls -> assertThat(calls)
                                        .filteredOn(c -> c.method().equals("answer to event push"))
                                        .extracting(c -> c.headers().get(":status"))
                                        .contains("200")));
                        assertThat(inbox.messages()).extracting(m -> m.id()).contains(dm.id() + ":" + ts);
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
