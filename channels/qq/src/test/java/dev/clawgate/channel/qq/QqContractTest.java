package dev.clawgate.channel.qq;

import static dev.clawgate.channel.qq.QqFixture.finalReply;
import static dev.clawgate.channel.qq.QqFixture.group;
import static dev.clawgate.channel.qq.QqFixture.json;
import static dev.clawgate.channel.qq.QqFixture.user;
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
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.qq.FakeQq;
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

/** The adapter contract (SPEC OUT-4, IN-3, CH-13): every declared capability and ack policy proven on the fake. */
class QqContractTest {
    @TempDir
    Path dir;

    private FakeQq qq;
    private QqChannel channel;
    private QqMessageAdapter adapter;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicReference<InboundSink> sink = new AtomicReference<>(inbox);
    private int chats;

    @BeforeEach
    void start() throws Exception {
        qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET);
        channel = QqFixture.channel(QqFixture.account(qq, false), dir);
        adapter = (QqMessageAdapter) channel.messageAdapter();
        channel.start(m -> sink.get().accept(m));
        await().atMost(Duration.ofSeconds(10)).until(() -> qq.liveSessions() == 1);
    }

    @AfterEach
    void stop() {
        channel.stop();
        qq.close();
    }

    private String newGroup() {
        return "GROUP" + (++chats) + "A1B2C3D4E5F6";
    }

    private String memberWrote(String groupOpenid, String text) {
        String id = qq.groupMessage(groupOpenid, "MEMBER" + chats, text);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> id.equals(m.id())));
        return id;
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String name) {
        return calls.stream()
                .filter(c -> c.method().equals(name))
                .map(c -> json(c.body()))
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), qq)
                .prove(Capability.TEXT, p -> {
                    String g = newGroup();
                    String asked = memberWrote(g, "hello bot");
                    // SPEC OUT-4, CH-13: a passive reply, msg_type 0, carrying msg_id and msg_seq 1
                    MessageReceipt r = adapter.send(finalReply(group(g, asked), "hello there"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "messages.group").getFirst();
                        assertThat(sent.path("msg_type").asInt()).isZero();
                        assertThat(sent.path("content").asText()).isEqualTo("hello there");
                        assertThat(sent.path("msg_id").asText()).isEqualTo(asked);
                        assertThat(sent.path("msg_seq").asInt()).isEqualTo(1);
                        assertThat(calls.getFirst().headers().get("Authorization"))
                                .startsWith("QQBot qq-token-");
                    });
                    assertThat(r.primaryId()).isEqualTo(qq.sent().getLast().id());
                    assertThat(qq.sent().getLast().chat()).isEqualTo(g);
                })
                .prove(Capability.MEDIA, p -> {
                    String g = newGroup();
                    String asked = memberWrote(g, "a chart please");
                    // SPEC OUT-13, CH-13: a local image is uploaded (file_type 1, file_data) and sent as msg_type 7
                    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
                    Path file = Files.write(dir.resolve("chart.png"), png);
                    OutboundMessage m = new OutboundMessage(
                            group(g, asked),
                            "",
                            OutboundMessage.Kind.FINAL,
                            2,
                            List.of(new MediaRef(MediaRef.MediaKind.IMAGE, file.toString())),
                            null,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls.stream().map(PlatformCall::method).toList())
                                .containsSubsequence("files.group", "messages.group");
                        JsonNode sent = bodies(calls, "messages.group").getFirst();
                        assertThat(sent.path("msg_type").asInt()).isEqualTo(7);
                        String info = sent.path("media").path("file_info").asText();
                        assertThat(qq.file(info)).containsExactly(png);
                    });
                    assertThat(r.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.MEDIA));
                })
                .prove(Capability.BATCH, p -> {
                    String u = "USER" + (++chats) + "FFEE";
                    String asked = qq.c2cMessage(u, "text and picture");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> inbox.messages().stream().anyMatch(x -> asked.equals(x.id())));
                    // SPEC OUT-4, OUT-5, OUT-13: a reply's text and image payloads, in order, msg_seq 1 then 2
                    Path png = Files.write(dir.resolve("batch.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundMessage reply = finalReply(user(u, asked), "");
                    MessageReceipt text = adapter.send(reply.asPart(0, "the chart", List.of()), CancelToken.none());
                    MessageReceipt image = adapter.send(
                            reply.asPart(1, "", List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()))),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages.c2c"))
                            .extracting(b -> b.path("msg_type").asInt() + "/"
                                    + b.path("msg_seq").asInt())
                            .containsExactly("0/1", "7/2"));
                    assertThat(List.of(text, image))
                            .extracting(MessageReceipt::primaryId)
                            .doesNotHaveDuplicates()
                            .doesNotContainNull();
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    String g = newGroup();
                    String asked = memberWrote(g, "what is the key?");
                    // SPEC RP-1: what the hook decided is exactly what reaches QQ
                    OutboundTarget t = group(g, asked);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages.group"))
                            .extracting(b -> b.path("content").asText())
                            .containsExactly("the key is [redacted]"));
                })
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    String g = newGroup();
                    String asked = memberWrote(g, "question before a crash");
                    // SPEC OUT-7, CH-13: a payload whose send a crash cut is sent again with its seq: QQ refuses the
                    // duplicate (40054005), so it is found, and shown once; one that never took a seq was not sent
                    OutboundMessage reply = finalReply(group(g, asked), "the answer");
                    adapter.send(reply, CancelToken.none());
                    Reconciliation found = adapter.reconcileUnknownSend(reply, CancelToken.none());
                    p.verify(calls -> assertThat(calls.stream()
                                    .filter(c -> c.method().equals("messages.group"))
                                    .map(c -> c.headers().get(":code"))
                                    .toList())
                            .containsExactly("0", "40054005"));
                    assertThat(found).isInstanceOf(Reconciliation.Found.class);
                    assertThat(qq.sent()).filteredOn(s -> s.chat().equals(g)).hasSize(1);
                    OutboundMessage never = reply.asPart(3, "never sent", List.of());
                    assertThat(adapter.reconcileUnknownSend(never, CancelToken.none()))
                            .isInstanceOf(Reconciliation.NotSent.class);
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    // SPEC IN-3, IN-4: the gateway sequence advances only past a recorded message; one the store
                    // failed on drops the connection, and the Resume replays it: recorded once
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
                        String id = qq.c2cMessage("USERACK", "hello");
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(id)));
                        p.verify(calls -> assertThat(calls.stream()
                                        .map(PlatformCall::method)
                                        .filter(x -> x.startsWith("gateway."))
                                        .toList())
                                .contains("gateway.resume"));
                        assertThat(recorded).filteredOn(m -> m.id().equals(id)).hasSize(1);
                        assertThat(failedOnce).containsExactly(id);
                    } finally {
                        sink.set(inbox);
                    }
                })
                .tests();
    }
}
