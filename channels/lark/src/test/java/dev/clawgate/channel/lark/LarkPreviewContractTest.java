package dev.clawgate.channel.lark;

import static dev.clawgate.channel.lark.LarkFixture.chat;
import static dev.clawgate.channel.lark.LarkFixture.finalReply;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
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
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.lark.FakeLark;
import dev.clawgate.testkit.lark.LarkEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code stream_mode = "preview"} (SPEC OUT-9, CH-11): every capability the adapter then declares, proven on the
 * fake. Previews run on a manual clock and make their calls on the test's thread.
 */
class LarkPreviewContractTest {
    private static final Duration INTERVAL = Duration.ofMillis(300);
    private final ManualScheduler clock = new ManualScheduler();

    @TempDir
    Path dir;

    private FakeLark lark;
    private LarkChannel channel;
    private LarkMessageAdapter adapter;
    private int chats;

    @BeforeEach
    void start() {
        lark = LarkFixture.fake(false);
        channel = new LarkChannel(
                LarkFixture.account(lark, false, false, true, Duration.ofSeconds(1)),
                dir,
                Clock.systemUTC(),
                Runnable::run,
                clock,
                INTERVAL,
                LongConnection.FIRST_BACKOFF);
        adapter = (LarkMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        lark.close();
    }

    private String newChat() {
        return "oc_preview" + (++chats);
    }

    private static String md(String content) {
        return LarkContractTest.json(content)
                .path("zh_cn")
                .path("content")
                .path(0)
                .path(0)
                .path("text")
                .asText();
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String name) {
        return calls.stream()
                .filter(c -> c.method().equals(name))
                .map(c -> LarkContractTest.json(c.body()))
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyPreviewCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), lark)
                .prove(Capability.TEXT, p -> {
                    String c = newChat();
                    adapter.send(finalReply(chat(c, null), "plain text"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "messages.create")).hasSize(1));
                    assertThat(lark.visible(c)).containsExactly("{\"text\":\"plain text\"}");
                })
                .prove(Capability.MEDIA, p -> {
                    String c = newChat();
                    Path png = Files.write(dir.resolve("p.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    adapter.send(
                            new OutboundMessage(
                                    chat(c, null),
                                    "",
                                    OutboundMessage.Kind.FINAL,
                                    3,
                                    List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                                    SendOptions.DEFAULT,
                                    0),
                            CancelToken.none());
                    p.verify(calls -> assertThat(
                                    calls.stream().map(PlatformCall::method).toList())
                            .containsSubsequence("images.upload", "messages.create"));
                })
                .prove(Capability.BATCH, p -> {
                    String c = newChat();
                    // SPEC OUT-9, OUT-13: the draft becomes the text; the image follows as its own message
                    Path png = Files.write(dir.resolve("b.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundTarget t = chat(c, null);
                    adapter.openStream(t).delta("drawing");
                    OutboundMessage reply = finalReply(t, "");
                    adapter.send(reply.asPart(0, "the chart", List.of()), CancelToken.none());
                    adapter.send(
                            reply.asPart(1, "", List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()))),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages.create"))
                            .extracting(b -> b.path("msg_type").asText())
                            .containsExactly("post", "image"));
                    assertThat(lark.visible(c)).hasSize(2);
                })
                .prove(Capability.REPLY_TO, p -> {
                    String c = newChat();
                    lark.deliverTo(java.net.URI.create("http://127.0.0.1:9/unused"));
                    String asked = lark.userSends("ou_u", c, "p2p", "text", LarkEvents.text("q"));
                    OutboundTarget t = chat(c, asked);
                    // SPEC OUT-3, OUT-9: the draft itself is a reply to the message, and the final edit keeps it there
                    adapter.openStream(t).delta("thinking");
                    adapter.send(
                            finalReply(t, "answer").withOptions(new SendOptions(true, false, false, false)),
                            CancelToken.none());
                    p.verify(
                            calls -> assertThat(bodies(calls, "messages.reply")).hasSize(1));
                    assertThat(lark.sent().getLast().parentId()).isEqualTo(asked);
                    assertThat(lark.visible(c))
                            .singleElement()
                            .satisfies(x -> assertThat(md(x)).isEqualTo("answer"));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    String c = newChat();
                    // SPEC RP-1: what the hook decided is exactly what Lark keeps, even over a streamed draft
                    OutboundTarget t = chat(c, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    ReplyStream stream = adapter.openStream(t);
                    stream.delta("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    p.verify(calls -> assertThat(md(bodies(calls, "messages.update")
                                    .getLast()
                                    .path("content")
                                    .asText()))
                            .isEqualTo("the key is [redacted]"));
                    assertThat(lark.visible(c))
                            .singleElement()
                            .satisfies(x -> assertThat(md(x)).isEqualTo("the key is [redacted]"));
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    String c = newChat();
                    // SPEC OUT-9: a ... draft at once; then at most one edit per interval however many deltas come
                    OutboundTarget t = chat(c, null);
                    ReplyStream s = adapter.openStream(t);
                    assertThat(lark.visible(c))
                            .singleElement()
                            .satisfies(x -> assertThat(md(x)).isEqualTo("..."));
                    for (int i = 0; i < 20; i++) s.delta("word" + i + " ");
                    clock.advance(INTERVAL.toMillis() - 1);
                    assertThat(md(lark.visible(c).getFirst())).isEqualTo("...");
                    clock.advance(1);
                    assertThat(md(lark.visible(c).getFirst()))
                            .startsWith("word0 word1")
                            .contains("word19");
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        assertThat(bodies(calls, "messages.create")).hasSize(1);
                        assertThat(bodies(calls, "messages.update")).hasSize(1);
                        // SPEC DI-5: the draft of a cancelled run is taken away
                        assertThat(calls)
                                .filteredOn(x -> x.method().equals("messages.delete"))
                                .hasSize(1);
                    });
                    assertThat(lark.visible(c)).isEmpty();
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    String c = newChat();
                    OutboundTarget t = chat(c, null);
                    adapter.openStream(t).delta("draft text");
                    adapter.send(finalReply(t, "the **final** answer"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "messages.create")).hasSize(1));
                    assertThat(lark.visible(c))
                            .singleElement()
                            .satisfies(x -> assertThat(md(x)).isEqualTo("the **final** answer"));
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    String c = newChat();
                    // SPEC OUT-9, CH-11: 20 edits per message: the preview stops at 19, the final edit is the 20th
                    OutboundTarget t = chat(c, null);
                    ReplyStream s = adapter.openStream(t);
                    for (int i = 0; i < 30; i++) {
                        s.delta("w" + i + " ");
                        clock.advance(INTERVAL.toMillis());
                    }
                    adapter.send(finalReply(t, "done"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "messages.update")).hasSize(LarkDraft.PREVIEW_EDITS + 1));
                    FakeLark.Sent draft = lark.sent().stream()
                            .filter(x -> x.chatId().equals(c))
                            .findFirst()
                            .orElseThrow();
                    assertThat(draft.edits()).hasSize(20);
                    assertThat(md(draft.edits().getLast())).isEqualTo("done");
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    String c = newChat();
                    OutboundTarget t = chat(c, null);
                    adapter.openStream(t).delta("draft");
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    String draft = lark.sent().stream()
                            .filter(x -> x.chatId().equals(c))
                            .findFirst()
                            .orElseThrow()
                            .messageId();
                    p.verify(calls ->
                            assertThat(bodies(calls, "messages.update")).hasSize(1));
                    assertThat(r.primaryId()).isEqualTo(draft);
                })
                .prove(Capability.NORMAL_FALLBACK, p -> {
                    String c = newChat();
                    OutboundTarget t = chat(c, null);
                    adapter.openStream(t).delta("draft");
                    lark.failNext("messages.update", 400, 230011, "The message was not found.");
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "messages.create")).hasSize(2);
                        assertThat(calls)
                                .filteredOn(x -> x.method().equals("messages.delete"))
                                .hasSize(1);
                    });
                    assertThat(lark.visible(c)).containsExactly("{\"text\":\"final\"}");
                    assertThat(r.primaryId()).isEqualTo(lark.sent().getLast().messageId());
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    String c = newChat();
                    // SPEC OUT-9: an update waiting for the interval is dropped when the final reply comes
                    OutboundTarget t = chat(c, null);
                    ReplyStream s = adapter.openStream(t);
                    s.delta("first");
                    s.delta(" second, pending behind the interval");
                    adapter.send(finalReply(t, "final"), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    clock.advance(10 * INTERVAL.toMillis());
                    p.verify(calls -> assertThat(bodies(calls, "messages.update"))
                            .extracting(b -> md(b.path("content").asText()))
                            .containsExactly("final"));
                })
                .prove(Capability.RETAIN_ON_AMBIGUOUS_FAILURE, p -> {
                    String c = newChat();
                    // SPEC OUT-7, OUT-9: the final edit's answer is lost: the draft stands for the reply
                    OutboundTarget t = chat(c, null);
                    adapter.openStream(t).delta("draft");
                    lark.delayNext("messages.update", Duration.ofSeconds(2));
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls ->
                            assertThat(bodies(calls, "messages.create")).hasSize(1));
                    assertThat(r.primaryId()).isEqualTo(lark.sent().getLast().messageId());
                    assertThat(lark.visible(c)).hasSize(1);
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    // SPEC IN-3: proven over HTTP in LarkContractTest; here once more on the preview channel
                    RecordingInbox inbox = new RecordingInbox();
                    channel.start(inbox);
                    try (var server =
                            new LarkFixture.RouteServer(channel.webhookRoutes().getFirst())) {
                        lark.deliverTo(server.url());
                        String id = lark.userSendsText("ou_w", newChat(), "p2p", "recorded first");
                        Awaitility.await().until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
                        Awaitility.await()
                                .until(() -> lark.calls().stream()
                                        .anyMatch(x -> x.method().equals(FakeLark.WEBHOOK_ANSWER)));
                        p.verify(calls -> assertThat(calls)
                                .filteredOn(x -> x.method().equals(FakeLark.WEBHOOK_ANSWER))
                                .extracting(x -> x.headers().get(":status"))
                                .contains("200"));
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }

    @Test
    void withoutPreviewNoDraftIsSent() throws Exception {
        // SPEC OUT-9: stream_mode = "off" streams nothing
        LarkChannel off = LarkFixture.channel(LarkFixture.account(lark, false, false), dir);
        assertThat(off.messageAdapter().openStream(chat("oc_off", null))).isSameAs(ReplyStream.NONE);
        assertThat(off.messageAdapter().capabilities()).doesNotContain(Capability.DRAFT_PREVIEW);
        assertThat(lark.calls()).isEmpty();
    }
}
