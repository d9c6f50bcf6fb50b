package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.TelegramFixture.finalReply;
import static dev.clawgate.channel.telegram.TelegramFixture.target;
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
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract (SPEC OUT-4, OUT-9, IN-3): every declared capability and ack policy proven against the fake Bot
 * API. Previews run on a manual clock and make their calls on the test's thread, so each proof sees exactly the calls
 * it caused.
 */
class TelegramContractTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private TelegramMessageAdapter adapter;
    private TelegramUser alice;
    private TelegramChat forum;
    private long nextUser = 1000;
    private final ManualScheduler clock = new ManualScheduler();
    private static final long INTERVAL_MS = TelegramFixture.PREVIEW_INTERVAL.toMillis();

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        alice = tg.user(111, "alice");
        forum = tg.forum(-1002, "Forum");
        channel = TelegramFixture.channel(tg, dir, true, false, Duration.ofSeconds(1), clock);
        adapter = (TelegramMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        tg.close();
    }

    /** Dynamic tests share one fixture, so each proof talks in a chat of its own. */
    private TelegramChat newDm() {
        alice = tg.user(++nextUser, "user" + nextUser);
        return tg.privateChat(alice);
    }

    private static JsonNode body(PlatformCall call) {
        try {
            return BotApi.JSON.readTree(call.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String method) {
        return calls.stream()
                .filter(c -> c.method().equals(method))
                .map(TelegramContractTest::body)
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), tg)
                .prove(Capability.TEXT, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-4, CH-3: markdown rendered as Telegram HTML
                    MessageReceipt r = adapter.send(
                            finalReply(target(dm, null, null), "hello **world** & <you>"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "sendMessage").getFirst();
                        assertThat(sent.path("text").asText()).isEqualTo("hello <b>world</b> &amp; &lt;you&gt;");
                        assertThat(sent.path("parse_mode").asText()).isEqualTo("HTML");
                        assertThat(sent.path("chat_id").asLong()).isEqualTo(dm.id());
                    });
                    SentMessage m = tg.sentTo(dm).getFirst();
                    assertThat(m.text()).isEqualTo("hello world & <you>");
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + m.messageId());
                })
                .prove(Capability.BATCH, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-4, OUT-5, OUT-13: text and media of one reply, each platform message reported as its own
                    // part
                    Path png = Files.write(dir.resolve("batch.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundMessage m = new OutboundMessage(
                            target(dm, null, null),
                            "the chart",
                            OutboundMessage.Kind.FINAL,
                            1,
                            List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> assertThat(calls)
                            .extracting(PlatformCall::method)
                            .containsSubsequence("sendMessage", "sendPhoto"));
                    assertThat(tg.sentTo(dm)).extracting(SentMessage::kind).containsExactly("text", "photo");
                    assertThat(r.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.TEXT, MessageReceipt.PartKind.MEDIA);
                    assertThat(r.platformIds()).hasSize(2);
                })
                .prove(Capability.MEDIA, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-13: a photo and a document uploaded as multipart
                    Path png = Files.write(dir.resolve("chart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3});
                    Path pdf = Files.write(dir.resolve("report.pdf"), "%PDF-1.4".getBytes());
                    OutboundMessage m = new OutboundMessage(
                            target(dm, null, null),
                            "",
                            OutboundMessage.Kind.FINAL,
                            1,
                            List.of(
                                    new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()),
                                    new MediaRef(MediaRef.MediaKind.DOCUMENT, pdf.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "sendPhoto")
                                        .getFirst()
                                        .path("photo")
                                        .path("file_name")
                                        .asText())
                                .isEqualTo("chart.png");
                        assertThat(bodies(calls, "sendDocument")
                                        .getFirst()
                                        .path("document")
                                        .path("size")
                                        .asInt())
                                .isEqualTo(8);
                    });
                    assertThat(tg.sentTo(dm)).extracting(SentMessage::kind).containsExactly("photo", "document");
                    assertThat(tg.sentTo(dm).getFirst().bytes()).isEqualTo(Files.readAllBytes(png));
                    assertThat(r.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsOnly(MessageReceipt.PartKind.MEDIA)
                            .hasSize(2);
                })
                .prove(Capability.REPLY_TO, p -> {
                    TelegramChat dm = newDm();
                    long asked = tg.sendText(dm, alice, "question");
                    adapter.send(finalReply(target(dm, null, asked), "answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "sendMessage")
                                    .getFirst()
                                    .path("reply_parameters")
                                    .path("message_id")
                                    .asLong())
                            .isEqualTo(asked));
                    assertThat(tg.sentTo(dm).getLast().replyTo()).isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    TelegramChat dm = newDm();
                    // SPEC CH-3: a forum topic is the thread
                    long topic = tg.createTopic(forum, "Ideas");
                    adapter.send(
                            finalReply(target(forum, Long.toString(topic), null), "in the topic"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "sendMessage")
                                    .getFirst()
                                    .path("message_thread_id")
                                    .asLong())
                            .isEqualTo(topic));
                    assertThat(tg.sentTo(forum).getLast().threadId()).isEqualTo(topic);
                })
                .prove(Capability.SILENT, p -> {
                    TelegramChat dm = newDm();
                    adapter.send(
                            TelegramFixture.withOptions(
                                    target(dm, null, null), "psst", new SendOptions(false, true, false, false)),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "sendMessage")
                                    .getFirst()
                                    .path("disable_notification")
                                    .asBoolean())
                            .isTrue());
                    assertThat(tg.sentTo(dm).getLast().silent()).isTrue();
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    TelegramChat dm = newDm();
                    // SPEC RP-1: what the hook decided is exactly what reaches Telegram, even over a streamed draft
                    OutboundTarget t = target(dm, null, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    ReplyStream stream = adapter.openStream(t);
                    stream.delta("the key is sk-secret");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    p.verify(calls -> assertThat(bodies(calls, "editMessageText")
                                    .getLast()
                                    .path("text")
                                    .asText())
                            .isEqualTo("the key is [redacted]"));
                    assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("the key is [redacted]");
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-9: a draft (...) at once, before any text; then at most one edit per interval however
                    // many deltas come
                    OutboundTarget t = target(dm, null, null);
                    ReplyStream s = adapter.openStream(t);
                    assertThat(tg.sentTo(dm))
                            .singleElement()
                            .extracting(SentMessage::text)
                            .isEqualTo("...");
                    for (int i = 0; i < 20; i++) s.delta("word" + i + " ");
                    assertThat(tg.calls("editMessageText"))
                            .noneMatch(b -> b.path("chat_id").asLong() == dm.id());
                    clock.advance(INTERVAL_MS - 1);
                    assertThat(tg.calls("editMessageText"))
                            .noneMatch(b -> b.path("chat_id").asLong() == dm.id());
                    clock.advance(1);
                    assertThat(tg.sentTo(dm).getFirst().text())
                            .startsWith("word0 word1")
                            .contains("word19")
                            .doesNotContain("word20");
                    for (int i = 20; i < 40; i++) s.delta("word" + i + " ");
                    clock.advance(INTERVAL_MS - 1);
                    assertThat(tg.sentTo(dm).getFirst().text()).doesNotContain("word20");
                    clock.advance(1);
                    assertThat(tg.sentTo(dm).getFirst().text()).contains("word39");
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        assertThat(bodies(calls, "sendMessage")).singleElement().satisfies(b -> {
                            assertThat(b.path("text").asText()).isEqualTo("...");
                            assertThat(b.has("parse_mode")).isFalse();
                        });
                        assertThat(bodies(calls, "editMessageText")).hasSize(2);
                        // SPEC DI-5: the draft of a cancelled run is taken away
                        assertThat(bodies(calls, "deleteMessage"))
                                .singleElement()
                                .extracting(b -> b.path("message_id").asLong())
                                .isEqualTo(tg.sent().stream()
                                        .filter(m -> m.chatId() == dm.id())
                                        .findFirst()
                                        .orElseThrow()
                                        .messageId());
                    });
                    assertThat(tg.sentTo(dm)).isEmpty();
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    TelegramChat dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft text");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    adapter.send(finalReply(t, "the *final* answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "sendMessage")).hasSize(1));
                    assertThat(tg.sentTo(dm))
                            .singleElement()
                            .extracting(SentMessage::text)
                            .isEqualTo("the final answer");
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-9: a final longer than one message edits the first chunk into the draft and sends the
                    // rest
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("thinking");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    long draft = tg.sentTo(dm).getFirst().messageId();
                    String longText = ("word ".repeat(60) + "\n\n").repeat(20);
                    assertThat(TelegramFixture.deliver(adapter, finalReply(t, longText), CancelToken.none()))
                            .isInstanceOf(dev.clawgate.core.internal.outbound.DeliveryOutcome.Sent.class);
                    p.verify(calls -> {
                        assertThat(bodies(calls, "editMessageText")
                                        .getLast()
                                        .path("message_id")
                                        .asLong())
                                .isEqualTo(draft);
                        assertThat(bodies(calls, "editMessageText")
                                        .getLast()
                                        .path("parse_mode")
                                        .asText())
                                .isEqualTo("HTML");
                    });
                    assertThat(tg.sentTo(dm)).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(tg.sentTo(dm).getFirst().messageId()).isEqualTo(draft);
                    assertThat(tg.sentTo(dm))
                            .allSatisfy(m -> assertThat(m.text().length()).isLessThanOrEqualTo(4096));
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    TelegramChat dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    long draft = tg.sentTo(dm).getFirst().messageId();
                    p.verify(calls -> assertThat(bodies(calls, "editMessageText")
                                    .getLast()
                                    .path("message_id")
                                    .asLong())
                            .isEqualTo(draft));
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + draft);
                })
                .prove(Capability.NORMAL_FALLBACK, p -> {
                    TelegramChat dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    long draft = tg.sentTo(dm).getFirst().messageId();
                    tg.failNext("editMessageText", 400, "Bad Request: message to edit not found", null);
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "sendMessage")
                                        .getLast()
                                        .path("text")
                                        .asText())
                                .isEqualTo("final");
                        assertThat(bodies(calls, "deleteMessage")
                                        .getFirst()
                                        .path("message_id")
                                        .asLong())
                                .isEqualTo(draft);
                    });
                    assertThat(tg.sentTo(dm))
                            .singleElement()
                            .extracting(SentMessage::text)
                            .isEqualTo("final");
                    assertThat(r.primaryId()).isNotEqualTo(dm.id() + ":" + draft);
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    TelegramChat dm = newDm();
                    // SPEC OUT-9: updates waiting for the interval are dropped when the final reply comes, and none
                    // follows it
                    OutboundTarget t = target(dm, null, null);
                    ReplyStream s = adapter.openStream(t);
                    s.delta("first");
                    s.delta(" second, pending behind the interval");
                    adapter.send(finalReply(t, "final"), CancelToken.none());
                    adapter.turnEnded(t, 1, TurnOutcome.REPLIED);
                    clock.advance(10 * INTERVAL_MS);
                    p.verify(calls -> assertThat(bodies(calls, "editMessageText"))
                            .extracting(b -> b.path("text").asText())
                            .containsExactly("final"));
                    assertThat(tg.sentTo(dm))
                            .singleElement()
                            .extracting(SentMessage::text)
                            .isEqualTo("final");
                })
                .prove(Capability.RETAIN_ON_AMBIGUOUS_FAILURE, p -> {
                    TelegramChat dm = newDm();
                    OutboundTarget t = target(dm, null, null);
                    adapter.openStream(t).delta("draft");
                    await().until(() -> !tg.sentTo(dm).isEmpty());
                    long draft = tg.sentTo(dm).getFirst().messageId();
                    tg.stallNext("editMessageText", Duration.ofSeconds(3));
                    MessageReceipt r = adapter.send(finalReply(t, "final"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "sendMessage")).hasSize(1));
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + draft);
                    assertThat(tg.sentTo(dm)).hasSize(1);
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    TelegramChat dm = newDm();
                    // SPEC IN-3: the offset confirms an update only after the sink recorded it; one the sink failed on
                    // comes again
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    List<String> failedOnce = new CopyOnWriteArrayList<>();
                    InboundSink sink = m -> {
                        if (m.text().equals("hello") && failedOnce.isEmpty()) {
                            failedOnce.add(m.id());
                            throw new IllegalStateException("store unavailable");
                        }
                        recorded.add(m);
                        return InboundSink.Acceptance.recorded(recorded.size());
                    };
                    long before = tg.lastUpdateId();
                    long hello = tg.sendText(dm, alice, "hello");
                    long update = before + 1;
                    channel.start(sink);
                    await().atMost(Duration.ofSeconds(15)).until(() -> tg.confirmedOffset() == update + 1);
                    p.verify(calls -> {
                        List<JsonNode> polls = bodies(calls, "getUpdates");
                        assertThat(polls)
                                .extracting(b -> b.path("offset").asLong())
                                .contains(0L, update + 1);
                        assertThat(polls)
                                .extracting(b -> b.path("offset").asLong())
                                .doesNotContain(update + 2);
                    });
                    assertThat(recorded).extracting(InboundMessage::id).containsOnlyOnce(dm.id() + ":" + hello);
                    assertThat(failedOnce).containsExactly(dm.id() + ":" + hello);
                    // one poller per bot: the next ack proof polls with its own channel
                    channel.stop();
                })
                .prove(AckPolicy.AFTER_DURABLE_SEND, p -> {
                    TelegramChat dm = newDm();
                    // SPEC IN-3 after_durable_send: the offset passes an update only once its record is final in the
                    // store (its reply
                    // committed with the turn), and only the contiguous prefix; a held update comes back each poll,
                    // handed on once
                    TelegramChannel durable = new TelegramChannel(
                            List.of(TelegramFixture.account(tg, false, false, AckPolicy.AFTER_DURABLE_SEND)),
                            dir,
                            Duration.ofSeconds(1),
                            Duration.ZERO);
                    Map<Long, InboxState> store = new ConcurrentHashMap<>();
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    InboundSink sink = new InboundSink() {
                        @Override
                        public Acceptance accept(InboundMessage m) {
                            recorded.add(m);
                            long id = 100 + recorded.size();
                            store.put(id, InboxState.DISPATCHED);
                            return Acceptance.recorded(id);
                        }

                        @Override
                        public Optional<InboxState> recordState(long inboxId) {
                            return Optional.ofNullable(store.get(inboxId));
                        }
                    };
                    long before = tg.lastUpdateId();
                    tg.sendText(dm, alice, "first");
                    tg.sendText(dm, alice, "second");
                    long first = before + 1, second = before + 2;
                    durable.start(sink);
                    try {
                        await().atMost(Duration.ofSeconds(15)).until(() -> recorded.size() == 2);
                        await().atMost(Duration.ofSeconds(15))
                                .until(() -> p.calls("getUpdates").size() >= 4);
                        assertThat(tg.confirmedOffset())
                                .as("no reply is durable yet")
                                .isLessThanOrEqualTo(first);
                        store.put(102L, InboxState.DONE);
                        int polls = p.calls("getUpdates").size();
                        await().atMost(Duration.ofSeconds(15))
                                .until(() -> p.calls("getUpdates").size() >= polls + 3);
                        assertThat(tg.confirmedOffset())
                                .as("the second's reply is durable, the first's not")
                                .isLessThanOrEqualTo(first);
                        store.put(101L, InboxState.DONE);
                        await().atMost(Duration.ofSeconds(15)).until(() -> tg.confirmedOffset() == second + 1);
                    } finally {
                        durable.stop();
                    }
                    p.verify(calls -> {
                        List<Long> offsets = bodies(calls, "getUpdates").stream()
                                .map(b -> b.path("offset").asLong())
                                .toList();
                        assertThat(offsets).contains(second + 1).doesNotContain(first + 1);
                        assertThat(offsets.subList(0, offsets.indexOf(second + 1)))
                                .allSatisfy(o -> assertThat(o).isLessThanOrEqualTo(first));
                    });
                    assertThat(recorded).extracting(InboundMessage::text).containsExactly("first", "second");
                    assertThat(durable.ackPolicies()).contains(AckPolicy.AFTER_DURABLE_SEND);
                })
                .tests();
    }
}
