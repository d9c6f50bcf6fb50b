package dev.clawgate.channel.matrix;

import static dev.clawgate.channel.matrix.MatrixFixture.bodies;
import static dev.clawgate.channel.matrix.MatrixFixture.finalReply;
import static dev.clawgate.channel.matrix.MatrixFixture.target;
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
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.SendIdentityProofs;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import dev.clawgate.testkit.matrix.SentEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code stream_mode = "preview"} (SPEC OUT-9, CH-6): every capability the adapter then declares, proven against
 * the fake homeserver. Previews run on a manual clock and make their calls on the test's thread.
 */
class MatrixPreviewContractTest {
    private static final long INTERVAL_MS = MatrixFixture.PREVIEW_INTERVAL.toMillis();
    private final ManualScheduler clock = new ManualScheduler();

    @TempDir
    Path dataDir;

    private FakeMatrixHomeserver hs;
    private MatrixChannel channel;
    private MatrixMessageAdapter adapter;
    private final AtomicLong turns = new AtomicLong(500);
    private int people;

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        channel = MatrixFixture.channel(MatrixFixture.account(hs, true, false), dataDir, clock);
        adapter = (MatrixMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        hs.close();
    }

    private MatrixRoom newRoom() {
        MatrixUser u = hs.user("user" + (++people));
        MatrixRoom room = hs.createRoom(u, "room" + people);
        hs.joinBot(room);
        return room;
    }

    private OutboundMessage reply(OutboundTarget t, String text) {
        return finalReply(t, text, turns.incrementAndGet());
    }

    /** The edits ({@code m.replace}) among the send calls. */
    private static List<JsonNode> edits(List<dev.clawgate.testkit.contract.PlatformCall> calls) {
        return bodies(calls, "send").stream()
                .filter(b -> "m.replace"
                        .equals(b.path("m.relates_to").path("rel_type").asText()))
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyPreviewCapabilityIsProven() {
        // SPEC OUT-4, OUT-9: each proof below cites what it shows
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), hs)
                .prove(Capability.TEXT, p -> {
                    MatrixRoom room = newRoom();
                    adapter.send(reply(target(room, null, null), "plain **text**"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send")
                                    .getFirst()
                                    .path("body")
                                    .asText())
                            .isEqualTo("plain **text**"));
                    assertThat(hs.botMessages(room)).hasSize(1);
                })
                .prove(Capability.MEDIA, p -> {
                    MatrixRoom room = newRoom();
                    Path file = dataDir.resolve("report.pdf");
                    Files.writeString(file, "%PDF-1.4");
                    adapter.send(
                            new OutboundMessage(
                                    target(room, null, null),
                                    "",
                                    OutboundMessage.Kind.FINAL,
                                    turns.incrementAndGet(),
                                    List.of(new MediaRef(MediaRef.MediaKind.DOCUMENT, file.toString())),
                                    SendOptions.DEFAULT,
                                    0),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send")
                                    .getFirst()
                                    .path("msgtype")
                                    .asText())
                            .isEqualTo("m.file"));
                    assertThat(hs.media(hs.botMessages(room).getFirst().url())).isNotNull();
                })
                .prove(Capability.REPLY_TO, p -> {
                    MatrixRoom room = newRoom();
                    String asked = hs.as(hs.user("user" + people)).sendText(room, "question");
                    adapter.send(reply(target(room, null, asked), "answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send")
                                    .getFirst()
                                    .path("m.relates_to")
                                    .path("m.in_reply_to")
                                    .path("event_id")
                                    .asText())
                            .isEqualTo(asked));
                })
                .prove(Capability.THREAD, p -> {
                    MatrixRoom room = newRoom();
                    var u = hs.user("user" + people);
                    String root = hs.as(u).sendText(room, "root");
                    String inThread = hs.as(u).sendInThread(room, root, "reply");
                    // SPEC OUT-9, CH-6: the draft itself goes into the thread, and the final edit keeps it there
                    OutboundTarget t = target(room, root, inThread);
                    adapter.openStream(t).delta("thinking");
                    adapter.send(reply(t, "in the thread"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send")
                                    .getFirst()
                                    .path("m.relates_to")
                                    .path("event_id")
                                    .asText())
                            .isEqualTo(root));
                    assertThat(hs.botMessages(room)).singleElement().satisfies(m -> {
                        assertThat(m.threadRoot()).isEqualTo(root);
                        assertThat(m.body()).isEqualTo("in the thread");
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    MatrixRoom room = newRoom();
                    // SPEC RP-1: what the hook decided is exactly what the room keeps, even over a streamed draft
                    OutboundTarget t = target(room, null, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    ReplyStream stream = adapter.openStream(t);
                    stream.delta("the key is sk-secret");
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(reply(t, hooked), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    p.verify(calls -> assertThat(edits(calls)
                                    .getLast()
                                    .path("m.new_content")
                                    .path("body")
                                    .asText())
                            .isEqualTo("the key is [redacted]"));
                    assertThat(hs.botMessages(room))
                            .extracting(SentEvent::body)
                            .containsExactly("the key is [redacted]");
                })
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    MatrixRoom room = newRoom();
                    String asked = hs.as(hs.user("user" + people)).sendText(room, "question");
                    SendIdentityProofs.reconcileByClientId(
                            adapter,
                            () -> reply(target(room, null, asked), "answer"),
                            hs,
                            () -> hs.botMessages(room).size());
                    p.verify(calls ->
                            assertThat(MatrixFixture.of(calls, "messages")).hasSize(2));
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    MatrixRoom room = newRoom();
                    // SPEC OUT-9: a ... draft at once; then at most one edit per interval however many deltas come
                    OutboundTarget t = target(room, null, null);
                    ReplyStream s = adapter.openStream(t);
                    assertThat(hs.botMessages(room))
                            .singleElement()
                            .extracting(SentEvent::body)
                            .isEqualTo("...");
                    for (int i = 0; i < 20; i++) s.delta("word" + i + " ");
                    clock.advance(INTERVAL_MS - 1);
                    assertThat(hs.botMessages(room).getFirst().body()).isEqualTo("...");
                    clock.advance(1);
                    assertThat(hs.botMessages(room).getFirst().body())
                            .startsWith("word0 word1")
                            .contains("word19");
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        assertThat(bodies(calls, "send").getFirst().path("body").asText())
                                .isEqualTo("...");
                        assertThat(edits(calls)).hasSize(1);
                        // SPEC DI-5: the draft of a cancelled run is taken away
                        assertThat(MatrixFixture.of(calls, "redact")).hasSize(1);
                    });
                    assertThat(hs.botMessages(room))
                            .singleElement()
                            .satisfies(m -> assertThat(m.redacted()).isTrue());
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    MatrixRoom room = newRoom();
                    OutboundTarget t = target(room, null, null);
                    adapter.openStream(t).delta("draft text");
                    adapter.send(reply(t, "the *final* answer"), CancelToken.none());
                    p.verify(calls -> assertThat(edits(calls)).hasSize(1));
                    assertThat(hs.botMessages(room)).singleElement().satisfies(m -> {
                        assertThat(m.body()).isEqualTo("the *final* answer");
                        assertThat(m.formattedBody()).isEqualTo("the <em>final</em> answer");
                    });
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    MatrixRoom room = newRoom();
                    OutboundTarget t = target(room, null, null);
                    adapter.openStream(t).delta("thinking");
                    String draft = hs.botMessages(room).getFirst().eventId();
                    adapter.send(reply(t, "**done**"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode edit = edits(calls).getLast();
                        assertThat(edit.path("m.relates_to").path("event_id").asText())
                                .isEqualTo(draft);
                        assertThat(edit.path("body").asText()).isEqualTo("* **done**");
                        assertThat(edit.path("m.new_content")
                                        .path("formatted_body")
                                        .asText())
                                .isEqualTo("<strong>done</strong>");
                    });
                    assertThat(hs.event(draft).edits()).isPositive();
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    MatrixRoom room = newRoom();
                    OutboundTarget t = target(room, null, null);
                    adapter.openStream(t).delta("draft");
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    String draft = hs.botMessages(room).getFirst().eventId();
                    p.verify(calls -> assertThat(edits(calls)
                                    .getLast()
                                    .path("m.relates_to")
                                    .path("event_id")
                                    .asText())
                            .isEqualTo(draft));
                    assertThat(r.primaryId()).isEqualTo(draft);
                })
                .prove(Capability.NORMAL_FALLBACK, p -> {
                    MatrixRoom room = newRoom();
                    OutboundTarget t = target(room, null, null);
                    adapter.openStream(t).delta("draft");
                    String draft = hs.botMessages(room).getFirst().eventId();
                    hs.failNext("send", 400, "M_BAD_JSON", "edit refused");
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "send").getLast().path("body").asText())
                                .isEqualTo("final");
                        assertThat(MatrixFixture.of(calls, "redact")
                                        .getFirst()
                                        .headers()
                                        .get(":path"))
                                .contains(java.net.URLEncoder.encode(draft, java.nio.charset.StandardCharsets.UTF_8));
                    });
                    assertThat(hs.botMessages(room))
                            .filteredOn(m -> !m.redacted())
                            .singleElement()
                            .extracting(SentEvent::body)
                            .isEqualTo("final");
                    assertThat(r.primaryId()).isNotEqualTo(draft);
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    MatrixRoom room = newRoom();
                    // SPEC OUT-9: an update waiting for the interval is dropped when the final reply comes, and none
                    // follows it
                    OutboundTarget t = target(room, null, null);
                    ReplyStream s = adapter.openStream(t);
                    s.delta("first");
                    s.delta(" second, pending behind the interval");
                    adapter.send(reply(t, "final"), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    clock.advance(10 * INTERVAL_MS);
                    p.verify(calls -> assertThat(edits(calls))
                            .extracting(
                                    b -> b.path("m.new_content").path("body").asText())
                            .containsExactly("final"));
                    assertThat(hs.botMessages(room))
                            .singleElement()
                            .extracting(SentEvent::body)
                            .isEqualTo("final");
                })
                .prove(Capability.RETAIN_ON_AMBIGUOUS_FAILURE, p -> {
                    MatrixRoom room = newRoom();
                    // SPEC OUT-7, OUT-9: the final edit's answer is lost: the draft stands for the reply, nothing is
                    // sent again
                    OutboundTarget t = target(room, null, null);
                    adapter.openStream(t).delta("draft");
                    String draft = hs.botMessages(room).getFirst().eventId();
                    hs.stallNext("send", MatrixFixture.CALL_TIMEOUT.plusSeconds(2));
                    MessageReceipt r = adapter.send(reply(t, "final"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "send").stream()
                                    .filter(b -> !b.has("m.relates_to"))
                                    .count())
                            .isEqualTo(1));
                    assertThat(r.primaryId()).isEqualTo(draft);
                    assertThat(hs.botMessages(room)).hasSize(1);
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    // SPEC IN-3: proven with a failing store in MatrixContractTest; here the token is stored only
                    // after the sink
                    MatrixUser u = hs.user("writer" + (++people));
                    MatrixRoom dm = hs.directRoom(u);
                    RecordingInbox inbox = new RecordingInbox();
                    channel.start(inbox);
                    try {
                        Awaitility.await()
                                .atMost(Duration.ofSeconds(10))
                                .until(() -> "join".equals(hs.membership(dm, hs.bot())));
                        String id = hs.as(u).sendText(dm, "recorded first");
                        Awaitility.await()
                                .atMost(Duration.ofSeconds(10))
                                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
                        Path token =
                                dataDir.resolve("matrix").resolve("default").resolve("next_batch");
                        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(token));
                        p.verify(calls ->
                                assertThat(MatrixFixture.of(calls, "sync")).isNotEmpty());
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
