package dev.clawgate.channel.slack;

import static dev.clawgate.channel.slack.SlackFixture.finalReply;
import static dev.clawgate.channel.slack.SlackFixture.target;
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
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackMessage;
import dev.clawgate.testkit.slack.SlackUser;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The adapter contract (SPEC OUT-4, IN-3, CH-4): every declared capability and ack policy proven against the fake
 * Slack.
 */
class SlackContractTest {
    private FakeSlack slack;
    private dev.clawgate.channel.slack.SlackChannel channel;
    private SlackMessageAdapter adapter;
    private SlackUser alice;
    private int people;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        alice = slack.user("alice");
        channel = SlackFixture.channel(
                SlackFixture.account(slack, SlackAccount.Mode.EVENTS, false, Duration.ofSeconds(2)));
        adapter = (SlackMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        slack.close();
    }

    /** Dynamic tests share one fixture, so each proof talks in a conversation of its own. */
    private SlackChannel newDm() {
        alice = slack.user("user" + (++people));
        return slack.dm(alice);
    }

    private static JsonNode body(PlatformCall call) {
        try {
            return SlackApi.JSON.readTree(call.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String method) {
        return calls.stream()
                .filter(c -> c.method().equals(method))
                .map(SlackContractTest::body)
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), slack)
                .prove(Capability.TEXT, p -> {
                    SlackChannel dm = newDm();
                    // SPEC OUT-4, CH-4: Markdown rendered as mrkdwn, & < > escaped, to the DM
                    MessageReceipt r = adapter.send(
                            finalReply(target(dm, null, null), "hello **world** & <you>"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "chat.postMessage").getFirst();
                        assertThat(sent.path("text").asText()).isEqualTo("hello *world* &amp; &lt;you&gt;");
                        assertThat(sent.path("channel").asText()).isEqualTo(dm.id());
                        assertThat(sent.has("thread_ts")).isFalse();
                    });
                    SlackMessage m = slack.botMessages(dm).getFirst();
                    assertThat(r.primaryId()).isEqualTo(dm.id() + ":" + m.ts());
                    assertThat(r.parts()).hasSize(1);
                })
                .prove(Capability.MEDIA, p -> {
                    newDm();
                    // SPEC OUT-13, CH-4: a reply's files go through the external upload flow, shared as one message in
                    // the thread
                    SlackChannel general = slack.channel("media" + people);
                    String root = slack.post(general, alice, "send me the chart");
                    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("slack-upload");
                    byte[] pngBytes = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
                    java.nio.file.Path png = java.nio.file.Files.write(dir.resolve("chart.png"), pngBytes);
                    java.nio.file.Path pdf =
                            java.nio.file.Files.write(dir.resolve("report.pdf"), "%PDF-1.4".getBytes());
                    OutboundMessage m = new OutboundMessage(
                            target(general, root, root),
                            "here **it** is",
                            OutboundMessage.Kind.FINAL,
                            1,
                            List.of(
                                    new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()),
                                    new MediaRef(MediaRef.MediaKind.DOCUMENT, pdf.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(bodies(calls, "files.getUploadURLExternal"))
                                .extracting(b -> b.path("filename").asText() + ":"
                                        + b.path("length").asText())
                                .containsExactly("chart.png:7", "report.pdf:8");
                        assertThat(calls.stream()
                                        .filter(c -> c.method().equals("POST upload_url"))
                                        .map(c -> c.headers().get(":status")))
                                .containsExactly("200", "200");
                        JsonNode done =
                                bodies(calls, "files.completeUploadExternal").getFirst();
                        assertThat(done.path("channel_id").asText()).isEqualTo(general.id());
                        assertThat(done.path("thread_ts").asText()).isEqualTo(root);
                        assertThat(done.path("initial_comment").asText()).isEqualTo("here *it* is");
                        assertThat(bodies(calls, "chat.postMessage")).isEmpty();
                    });
                    SlackMessage shared = slack.botMessages(general).getFirst();
                    assertThat(slack.botMessages(general)).hasSize(1);
                    assertThat(shared.threadTs()).isEqualTo(root);
                    assertThat(shared.text()).isEqualTo("here *it* is");
                    assertThat(shared.fileIds()).hasSize(2);
                    assertThat(slack.fileBytes(shared.fileIds().getFirst())).isEqualTo(pngBytes);
                    assertThat(r.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsOnly(MessageReceipt.PartKind.MEDIA)
                            .hasSize(2);
                    assertThat(r.platformIds())
                            .containsExactly(
                                    general.id() + ":" + shared.fileIds().get(0),
                                    general.id() + ":" + shared.fileIds().get(1));
                })
                .prove(Capability.BATCH, p -> {
                    newDm();
                    // SPEC OUT-4, OUT-5, OUT-13: a reply's text payload and media payload, in order in its thread, each
                    // with its receipt
                    SlackChannel general = slack.channel("batch" + people);
                    String root = slack.post(general, alice, "chart please");
                    java.nio.file.Path png = java.nio.file.Files.write(
                            java.nio.file.Files.createTempDirectory("slack-batch")
                                    .resolve("b.png"),
                            new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundTarget t = target(general, null, root);
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
                    p.verify(calls -> {
                        assertThat(calls)
                                .extracting(PlatformCall::method)
                                .containsSubsequence(
                                        "chat.postMessage",
                                        "files.getUploadURLExternal",
                                        "files.completeUploadExternal");
                        assertThat(bodies(calls, "files.completeUploadExternal")
                                        .getFirst()
                                        .path("thread_ts")
                                        .asText())
                                .isEqualTo(root);
                    });
                    assertThat(slack.botMessages(general))
                            .extracting(m -> m.text() + ":" + m.fileIds().size())
                            .containsExactly("the chart:0", ":1");
                    assertThat(slack.botMessages(general))
                            .allSatisfy(m -> assertThat(m.threadTs()).isEqualTo(root));
                    assertThat(text.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.TEXT);
                    assertThat(media.parts())
                            .extracting(MessageReceipt.Part::kind)
                            .containsExactly(MessageReceipt.PartKind.MEDIA);
                })
                .prove(Capability.REPLY_TO, p -> {
                    newDm();
                    // SPEC OUT-3, CH-4: a reply to a top-level channel message opens a thread under it
                    SlackChannel general = slack.channel("general" + people);
                    String asked = slack.post(general, alice, "question");
                    MessageReceipt r =
                            adapter.send(finalReply(target(general, null, asked), "answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage")
                                    .getFirst()
                                    .path("thread_ts")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(slack.botMessages(general))
                            .singleElement()
                            .satisfies(m -> assertThat(m.threadTs()).isEqualTo(asked));
                    assertThat(r.threadId()).isEqualTo(asked);
                })
                .prove(Capability.THREAD, p -> {
                    newDm();
                    // SPEC CH-4: a message in a thread is answered in that thread
                    SlackChannel general = slack.channel("threads" + people);
                    String root = slack.post(general, alice, "root");
                    String inThread = slack.reply(general, root, alice, "in the thread");
                    adapter.send(finalReply(target(general, root, inThread), "threaded answer"), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage")
                                    .getFirst()
                                    .path("thread_ts")
                                    .asText())
                            .isEqualTo(root));
                    assertThat(slack.botMessages(general)).singleElement().satisfies(m -> {
                        assertThat(m.threadTs()).isEqualTo(root);
                        assertThat(m.isReply()).isTrue();
                    });
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    SlackChannel dm = newDm();
                    // SPEC RP-1: what the hook decided is exactly what reaches Slack
                    OutboundTarget t = target(dm, null, null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "chat.postMessage"))
                            .extracting(b -> b.path("text").asText())
                            .containsExactly("the key is [redacted]"));
                    assertThat(slack.botMessages(dm))
                            .extracting(SlackMessage::text)
                            .containsExactly("the key is [redacted]");
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    SlackChannel dm = newDm();
                    // SPEC IN-3, IN-4: an event is answered 200 only once recorded; one the store failed on is answered
                    // 503 and
                    // comes again from Slack, recorded once
                    List<InboundMessage> recorded = new CopyOnWriteArrayList<>();
                    List<String> failedOnce = new CopyOnWriteArrayList<>();
                    InboundSink sink = m -> {
                        if (m.text().equals("hello") && failedOnce.isEmpty()) {
                            failedOnce.add(m.id());
                            throw new dev.clawgate.core.store.StoreException("store unavailable", null);
                        }
                        recorded.add(m);
                        return InboundSink.Acceptance.recorded(recorded.size());
                    };
                    channel.start(sink);
                    slack.eventRetryDelays(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(50));
                    try (var server =
                            new SlackFixture.RouteServer(channel.webhookRoutes().getFirst())) {
                        slack.deliverEventsTo(server.url());
                        String ts = slack.post(dm, alice, "hello");
                        String eventId =
                                slack.events().getLast().path("event_id").asText();
                        String id = dm.id() + ":" + ts;
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(id)));
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> slack.deliveries().stream()
                                        .anyMatch(d -> d.eventId().equals(eventId) && d.accepted()));
                        p.verify(calls -> assertThat(calls.stream()
                                        .filter(c -> c.method().equals("answer to event push")
                                                && eventId.equals(c.headers().get("event-id")))
                                        .map(c -> c.headers().get(":status"))
                                        .toList())
                                .containsExactly("503", "200"));
                        assertThat(recorded).filteredOn(m -> m.id().equals(id)).hasSize(1);
                        assertThat(failedOnce).containsExactly(dm.id() + ":" + ts);
                    } finally {
                        channel.stop();
                    }
                })
                .tests();
    }
}
