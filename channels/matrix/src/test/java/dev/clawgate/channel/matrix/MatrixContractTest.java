package dev.clawgate.channel.matrix;

import static dev.clawgate.channel.matrix.MatrixFixture.bodies;
import static dev.clawgate.channel.matrix.MatrixFixture.finalReply;
import static dev.clawgate.channel.matrix.MatrixFixture.of;
import static dev.clawgate.channel.matrix.MatrixFixture.target;
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
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.SendIdentityProofs;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import dev.clawgate.testkit.matrix.SentEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract (SPEC OUT-4, IN-3, CH-6): every declared capability and ack policy proven against the fake
 * homeserver.
 */
class MatrixContractTest {
    @TempDir
    Path dataDir;

    private FakeMatrixHomeserver hs;
    private MatrixChannel channel;
    private MatrixMessageAdapter adapter;
    private final AtomicLong turns = new AtomicLong(100);
    private int people;

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        channel = MatrixFixture.channel(MatrixFixture.account(hs, false, false), dataDir);
        adapter = (MatrixMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        hs.close();
    }

    /** Dynamic tests share one fixture, so each proof talks in a room of its own. */
    private MatrixRoom newRoom(MatrixUser user) {
        MatrixRoom room = hs.createRoom(user, "room" + people);
        hs.joinBot(room);
        return room;
    }

    private MatrixUser newUser() {
        return hs.user("user" + (++people));
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        // SPEC OUT-4, IN-3: each proof below cites what it shows
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), hs)
                .prove(Capability.TEXT, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC OUT-4, CH-6: a plain body beside org.matrix.custom.html, sent with PUT
                    // .../send/m.room.message/{txnId}
                    MessageReceipt r = adapter.send(
                            finalReply(target(room, null, null), "hello **world** & <you>", turns.incrementAndGet()),
                            CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "send").getFirst();
                        assertThat(sent.path("body").asText()).isEqualTo("hello **world** & <you>");
                        assertThat(sent.path("format").asText()).isEqualTo("org.matrix.custom.html");
                        assertThat(sent.path("formatted_body").asText())
                                .isEqualTo("hello <strong>world</strong> &amp; &lt;you&gt;");
                        assertThat(of(calls, "send").getFirst().headers().get(":method"))
                                .isEqualTo("PUT");
                        assertThat(of(calls, "send").getFirst().headers().get(":path"))
                                .contains("/send/m.room.message/cg");
                    });
                    SentEvent m = hs.botMessages(room).getFirst();
                    assertThat(r.primaryId()).isEqualTo(m.eventId());
                    assertThat(m.formattedBody()).contains("<strong>world</strong>");
                })
                .prove(Capability.MEDIA, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC OUT-13, CH-6: the image is uploaded to the media repository and sent as m.image with its
                    // mxc URI
                    Path png = dataDir.resolve("chart.png");
                    byte[] bytes = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
                    Files.write(png, bytes);
                    OutboundMessage m = new OutboundMessage(
                            target(room, null, null),
                            "",
                            OutboundMessage.Kind.FINAL,
                            turns.incrementAndGet(),
                            List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(of(calls, "upload")).hasSize(1);
                        JsonNode sent = bodies(calls, "send").getFirst();
                        assertThat(sent.path("msgtype").asText()).isEqualTo("m.image");
                        assertThat(sent.path("url").asText()).startsWith("mxc://");
                        assertThat(sent.path("info").path("mimetype").asText()).isEqualTo("image/png");
                    });
                    SentEvent image = hs.botMessages(room).getFirst();
                    assertThat(hs.media(image.url())).isEqualTo(bytes);
                    assertThat(r.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.MEDIA));
                })
                .prove(Capability.REPLY_TO, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC OUT-3, CH-6: a rich reply names the message it answers (m.in_reply_to)
                    String asked = hs.as(alice).sendText(room, "question");
                    adapter.send(
                            finalReply(target(room, null, asked), "answer", turns.incrementAndGet()),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send")
                                    .getFirst()
                                    .path("m.relates_to")
                                    .path("m.in_reply_to")
                                    .path("event_id")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(hs.botMessages(room).getFirst().inReplyTo()).isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC CH-6: a message in a thread is answered in that thread (m.thread relation to the root)
                    String root = hs.as(alice).sendText(room, "root");
                    String inThread = hs.as(alice).sendInThread(room, root, "in the thread");
                    adapter.send(
                            finalReply(target(room, root, inThread), "threaded answer", turns.incrementAndGet()),
                            CancelToken.none());
                    p.verify(calls -> {
                        JsonNode rel = bodies(calls, "send").getFirst().path("m.relates_to");
                        assertThat(rel.path("rel_type").asText()).isEqualTo("m.thread");
                        assertThat(rel.path("event_id").asText()).isEqualTo(root);
                        assertThat(rel.path("m.in_reply_to").path("event_id").asText())
                                .isEqualTo(inThread);
                    });
                    assertThat(hs.botMessages(room))
                            .singleElement()
                            .satisfies(m -> assertThat(m.threadRoot()).isEqualTo(root));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC RP-1: what the hook decided is exactly what reaches the room
                    OutboundTarget t = target(room, null, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked, turns.incrementAndGet()), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send"))
                            .extracting(b -> b.path("body").asText())
                            .containsExactly("the key is [redacted]"));
                    assertThat(hs.botMessages(room))
                            .extracting(SentEvent::body)
                            .containsExactly("the key is [redacted]");
                })
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom room = newRoom(alice);
                    // SPEC OUT-7, OUT-12: reconcile proves a payload unsent (back to the message it answers), finds it
                    // once sent,
                    // and the same payload sent again is the same event (the transaction id follows from the outbox
                    // entry)
                    String asked = hs.as(alice).sendText(room, "question");
                    SendIdentityProofs.reconcileByClientId(
                            adapter,
                            () -> finalReply(target(room, null, asked), "the answer", turns.incrementAndGet()),
                            hs,
                            () -> hs.botMessages(room).size());
                    p.verify(calls -> {
                        assertThat(of(calls, "messages")).hasSize(2);
                        List<String> paths = of(calls, "send").stream()
                                .map(c -> c.headers().get(":path"))
                                .toList();
                        assertThat(paths).hasSize(2);
                        assertThat(paths.get(0)).isEqualTo(paths.get(1));
                    });
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    MatrixUser alice = newUser();
                    MatrixRoom dm = hs.directRoom(alice);
                    // SPEC IN-3, IN-4: the sync token moves past a batch only once its events are recorded: a batch
                    // the store
                    // failed on is synced again from the same token, and recorded once
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    List<String> failedOnce = new CopyOnWriteArrayList<>();
                    InboundSink sink = m -> {
                        if (m.text().equals("hello") && failedOnce.isEmpty()) {
                            failedOnce.add(m.id());
                            throw new dev.clawgate.core.store.StoreException("store unavailable", null);
                        }
                        if (recorded.stream().anyMatch(r -> r.id().equals(m.id())))
                            return InboundSink.Acceptance.DUPLICATE;
                        recorded.add(m);
                        return InboundSink.Acceptance.recorded(recorded.size());
                    };
                    channel.start(sink);
                    try {
                        await().atMost(Duration.ofSeconds(10)).until(() -> "join".equals(hs.membership(dm, hs.bot())));
                        String id = hs.as(alice).sendText(dm, "hello");
                        await().atMost(Duration.ofSeconds(15))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(id)));
                        p.verify(calls -> {
                            List<String> since = of(calls, "sync").stream()
                                    .map(c -> c.headers().get(":path"))
                                    .filter(s -> s.contains("since="))
                                    .map(s -> s.replaceAll(".*since=([^&]*).*", "$1"))
                                    .toList();
                            // the failed batch's token is asked for again, not skipped
                            assertThat(since).hasSizeGreaterThan(1);
                            assertThat(since.stream().distinct().count()).isLessThan(since.size());
                        });
                        assertThat(failedOnce).containsExactly(id);
                        assertThat(recorded).filteredOn(m -> m.id().equals(id)).hasSize(1);
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
