package dev.clawgate.channel.lark;

import static dev.clawgate.channel.lark.LarkFixture.chat;
import static dev.clawgate.channel.lark.LarkFixture.finalReply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.lark.FakeLark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The adapter contract (SPEC OUT-4, IN-3, CH-11): every declared capability and ack policy proven on the fake. */
class LarkContractTest {
    @TempDir
    Path dir;

    private FakeLark lark;
    private LarkChannel channel;
    private LarkMessageAdapter adapter;
    private LarkFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicReference<InboundSink> sink = new AtomicReference<>(inbox);
    private int chats;

    @BeforeEach
    void start() throws Exception {
        lark = LarkFixture.fake(true);
        channel = LarkFixture.channel(LarkFixture.account(lark, true, false), dir);
        adapter = (LarkMessageAdapter) channel.messageAdapter();
        channel.start(m -> sink.get().accept(m));
        server = new LarkFixture.RouteServer(channel.webhookRoutes().getFirst());
        lark.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        lark.close();
    }

    private String newChat() {
        return "oc_chat" + (++chats);
    }

    private String userWrote(String chatId, String text) {
        String id = lark.userSendsText("ou_user" + chats, chatId, "p2p", text);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
        return id;
    }

    static JsonNode json(String s) {
        try {
            return LarkApi.JSON.readTree(s);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String name) {
        return calls.stream()
                .filter(c -> c.method().equals(name))
                .map(c -> json(c.body()))
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), lark)
                .prove(Capability.TEXT, p -> {
                    String c = newChat();
                    // SPEC OUT-4, CH-11: plain text as a text message to the chat_id, with a uuid
                    MessageReceipt r = adapter.send(finalReply(chat(c, null), "hello there"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "messages.create").getFirst();
                        assertThat(sent.path("receive_id").asText()).isEqualTo(c);
                        assertThat(sent.path("msg_type").asText()).isEqualTo("text");
                        assertThat(json(sent.path("content").asText())
                                        .path("text")
                                        .asText())
                                .isEqualTo("hello there");
                        assertThat(sent.path("uuid").asText())
                                .hasSizeLessThanOrEqualTo(50)
                                .isNotEmpty();
                        assertThat(calls.stream()
                                        .filter(x -> x.method().equals("messages.create"))
                                        .findFirst()
                                        .orElseThrow()
                                        .headers()
                                        .get(":query"))
                                .isEqualTo("receive_id_type=chat_id");
                    });
                    assertThat(r.primaryId()).isEqualTo(lark.sent().getLast().messageId());
                    // Markdown goes as a post with an md element
                    adapter.send(
                            finalReply(chat(c, null), "**bold** and [a link](https://example.com)")
                                    .asPart(1, "**bold** and [a link](https://example.com)", List.of()),
                            CancelToken.none());
                    FakeLark.Sent post = lark.sent().getLast();
                    assertThat(post.msgType()).isEqualTo("post");
                    assertThat(json(post.content())
                                    .path("zh_cn")
                                    .path("content")
                                    .path(0)
                                    .path(0)
                                    .path("tag")
                                    .asText())
                            .isEqualTo("md");
                })
                .prove(Capability.MEDIA, p -> {
                    String c = newChat();
                    // SPEC OUT-13, CH-11: a local image is uploaded to im/v1/images and sent by its image_key
                    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
                    Path file = Files.write(dir.resolve("chart.png"), png);
                    OutboundMessage m = new OutboundMessage(
                            chat(c, null),
                            "",
                            OutboundMessage.Kind.FINAL,
                            2,
                            List.of(new MediaRef(MediaRef.MediaKind.IMAGE, file.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls.stream().map(PlatformCall::method).toList())
                                .containsSubsequence("images.upload", "messages.create");
                        JsonNode sent = bodies(calls, "messages.create").getFirst();
                        assertThat(sent.path("msg_type").asText()).isEqualTo("image");
                        String key = json(sent.path("content").asText())
                                .path("image_key")
                                .asText();
                        assertThat(lark.image(key)).containsExactly(png);
                    });
                    assertThat(r.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.MEDIA));
                })
                .prove(Capability.BATCH, p -> {
                    String c = newChat();
                    // SPEC OUT-4, OUT-5, OUT-13: a reply's text and image payloads, in order, each its own message
                    Path png = Files.write(dir.resolve("batch.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundMessage reply = finalReply(chat(c, null), "");
                    MessageReceipt text = adapter.send(reply.asPart(0, "the chart", List.of()), CancelToken.none());
                    MessageReceipt image = adapter.send(
                            reply.asPart(1, "", List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()))),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages.create"))
                            .extracting(b -> b.path("msg_type").asText())
                            .containsExactly("text", "image"));
                    assertThat(List.of(text, image))
                            .extracting(MessageReceipt::primaryId)
                            .doesNotHaveDuplicates()
                            .doesNotContainNull();
                })
                .prove(Capability.REPLY_TO, p -> {
                    String c = newChat();
                    String asked = userWrote(c, "what time is it?");
                    // SPEC OUT-3, CH-11: a reply goes through im/v1/messages/{message_id}/reply
                    OutboundMessage reply =
                            finalReply(chat(c, asked), "noon").withOptions(new SendOptions(true, false, false, false));
                    MessageReceipt r = adapter.send(reply, CancelToken.none());
                    p.verify(
                            calls -> assertThat(bodies(calls, "messages.reply")).hasSize(1));
                    assertThat(lark.sent().getLast().parentId()).isEqualTo(asked);
                    assertThat(lark.sent().getLast().chatId()).isEqualTo(c);
                    assertThat(r.replyToId()).isEqualTo(asked);
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    String c = newChat();
                    // SPEC RP-1: what the hook decided is exactly what reaches Lark
                    OutboundTarget t = chat(c, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages.create"))
                            .extracting(b -> json(b.path("content").asText())
                                    .path("text")
                                    .asText())
                            .containsExactly("the key is [redacted]"));
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    // SPEC IN-3, IN-4: an event is answered 200 only once recorded; one the store failed on is
                    // answered 503, pushed again, and recorded once
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    List<String> failedOnce = new CopyOnWriteArrayList<>();
                    sink.set(m -> {
                        if (failedOnce.isEmpty()) {
                            failedOnce.add(m.id());
                            throw new StoreException("store unavailable", null);
                        }
                        recorded.add(m);
                        return InboundSink.Acceptance.recorded(recorded.size());
                    });
                    try {
                        String id = lark.userSendsText("ou_x", newChat(), "p2p", "hello");
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(id)));
                        p.verify(calls -> assertThat(calls.stream()
                                        .filter(x -> x.method().equals(FakeLark.WEBHOOK_ANSWER))
                                        .map(x -> x.headers().get(":status"))
                                        .toList())
                                .containsExactly("503", "200"));
                        assertThat(recorded).filteredOn(m -> m.id().equals(id)).hasSize(1);
                        assertThat(failedOnce).containsExactly(id);
                    } finally {
                        sink.set(inbox);
                    }
                })
                .tests();
    }
}
