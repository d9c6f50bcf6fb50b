package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.server.channel.WebChatChannel;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.openai.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The web chat on the adapter contract (SPEC OUT-4, OUT-9): each declared capability proven over the real WebSocket;
 * the platform calls are the frames a connected page received.
 */
class WebChatProofsTest extends GatewayFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLIENT = "client-proofs-0001";
    private static final SendingHook MASK = (text, target) -> new SendingHook.Send(text.replace("secret", "******"));
    /** The page's text limit here (SPEC OUT-1: configurable), small so a long reply is several messages. */
    private static final int TEXT_LIMIT = 200;
    /** The preview's least time between two edits (SPEC OUT-9: configurable). */
    private static final Duration INTERVAL = Duration.ofMillis(500);

    private final AtomicInteger ids = new AtomicInteger();
    private WebChatClient page;

    @AfterEach
    void closeThePage() {
        if (page != null) page.close();
    }

    private static JsonNode json(PlatformCall call) {
        try {
            return JSON.readTree(call.body());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + call.body(), e);
        }
    }

    /** The calls that answer message {@code id}: frames of earlier proofs may still arrive. */
    private static List<PlatformCall> of(List<PlatformCall> calls, String id) {
        return calls.stream()
                .filter(c -> json(c).path("id").asText().equals(id))
                .toList();
    }

    private static long at(PlatformCall call) {
        return Long.parseLong(call.headers().get("at"));
    }

    /** A reply target of the connected page, answering a new message id. */
    private OutboundTarget target() {
        return new OutboundTarget(WebChatChannel.NAME, "default", CLIENT, null, "p" + ids.incrementAndGet());
    }

    private static OutboundMessage finalReply(OutboundTarget t, String text) {
        return new OutboundMessage(t, text, OutboundMessage.Kind.FINAL, 1);
    }

    @TestFactory
    Stream<DynamicTest> theWebChat() throws Exception {
        model.echoLastUserMessage();
        start(
                config().withChannel(new ChannelSettings(
                        WebChatChannel.NAME,
                        AccessSettings.defaults(),
                        Map.of(),
                        Map.of(
                                "text_limit",
                                Integer.toString(TEXT_LIMIT),
                                "preview_interval_ms",
                                Long.toString(INTERVAL.toMillis())))),
                GatewayOptions.server().withSendingHook(MASK));
        var channel = gateway.channel(WebChatChannel.NAME).orElseThrow();
        MessageAdapter adapter = channel.messageAdapter();
        page = WebChatClient.open(gateway.httpPort(), CLIENT, null);
        await().until(() -> ((WebChatChannel) channel).openPages() == 1);
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), () -> page.received)
                .prove(Capability.TEXT, p -> {
                    // SPEC CH-2: a message over the socket, its reply as a final frame
                    page.send("t1", "good morning");
                    page.untilDone("t1");
                    p.verify(calls -> assertThat(calls)
                            .filteredOn(c -> c.method().equals("final"))
                            .extracting(c -> json(c).path("text").asText())
                            .containsExactly("good morning"));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    // SPEC RP-1, OUT-4: the page sees the hook's text
                    page.send("h1", "the secret word");
                    page.untilDone("h1");
                    p.verify(calls -> assertThat(calls)
                            .filteredOn(c -> c.method().equals("final"))
                            .extracting(c -> json(c).path("text").asText())
                            .containsExactly("the ****** word"));
                })
                .prove(dev.clawgate.core.channel.AckPolicy.MANUAL, p -> {
                    // SPEC IN-3: the page is answered by the channel itself: a message id it already recorded gets a
                    // notice, no second turn
                    page.send("a1", "once only");
                    page.untilDone("a1");
                    page.send("a1", "once only");
                    await().until(() -> p.calls("notice").size() == 1);
                    p.verify(calls -> {
                        assertThat(json(p.calls("notice").getFirst())
                                        .path("text")
                                        .asText())
                                .contains("already received");
                        assertThat(of(calls, "a1"))
                                .filteredOn(c -> c.method().equals("final"))
                                .hasSize(1);
                    });
                })
                .prove(Capability.DRAFT_PREVIEW, p -> {
                    // SPEC OUT-9: a draft at once, before any text; then edits with the whole text, at most one per
                    // interval:
                    // twenty deltas inside one interval make one edit (each would be an edit without the limit)
                    OutboundTarget t = target();
                    ReplyStream s = adapter.openStream(t);
                    await().until(() ->
                            of(p.calls("draft"), t.inReplyToMessageId()).size() == 1);
                    StringBuilder all = new StringBuilder();
                    for (int i = 0; i < 20; i++) {
                        s.delta("w" + i + " ");
                        all.append("w").append(i).append(' ');
                    }
                    await().until(() ->
                            of(p.calls("edit"), t.inReplyToMessageId()).size() == 1);
                    await().during(INTERVAL.multipliedBy(2))
                            .atMost(Duration.ofSeconds(5))
                            .until(() ->
                                    of(p.calls("edit"), t.inReplyToMessageId()).size() == 1);
                    adapter.turnEnded(t, 1, TurnOutcome.CANCELLED);
                    p.verify(calls -> {
                        List<PlatformCall> preview = of(calls, t.inReplyToMessageId()).stream()
                                .filter(c -> Set.of("draft", "edit").contains(c.method()))
                                .toList();
                        assertThat(preview).extracting(PlatformCall::method).containsExactly("draft", "edit");
                        assertThat(json(preview.get(0)).path("text").asText()).isEmpty();
                        assertThat(json(preview.get(1)).path("text").asText()).isEqualTo(all.toString());
                        assertThat(Duration.ofNanos(at(preview.get(1)) - at(preview.get(0))))
                                .isGreaterThanOrEqualTo(INTERVAL.minusMillis(20));
                    });
                })
                .prove(Capability.PREVIEW_FINALIZATION, p -> {
                    // SPEC OUT-9: the turn's reply finalises the draft, which showed before the model answered: the
                    // final frame
                    // names it, and the turn ends after
                    model.enqueue(Reply.text("finalise me").delayBefore(Duration.ofMillis(300)));
                    page.send("f1", "finalise me");
                    page.untilDone("f1");
                    p.verify(calls -> {
                        List<JsonNode> frames = calls.stream()
                                .map(WebChatProofsTest::json)
                                .filter(f -> f.path("id").asText().equals("f1"))
                                .toList();
                        assertThat(frames.getFirst().path("type").asText()).isEqualTo("draft");
                        JsonNode fin = frames.stream()
                                .filter(f -> f.path("type").asText().equals("final"))
                                .findFirst()
                                .orElseThrow();
                        assertThat(fin.path("messageId").asText())
                                .isEqualTo(frames.getFirst().path("messageId").asText());
                        assertThat(frames.getLast().path("type").asText()).isEqualTo("done");
                    });
                })
                .prove(Capability.FINAL_EDIT, p -> {
                    // SPEC OUT-9: the draft is edited into the final reply (same messageId, the reply's text), not
                    // answered by a new
                    // message; a final longer than one message (SPEC OUT-1: the configured text_limit) edits the first
                    // chunk into
                    // the draft and sends the rest
                    OutboundTarget t = target();
                    ReplyStream s = adapter.openStream(t);
                    s.delta("draft text");
                    await().until(() -> page.received.stream()
                            .anyMatch(c -> c.method().equals("draft")
                                    && json(c).path("id").asText().equals(t.inReplyToMessageId())));
                    adapter.send(finalReply(t, "the final text"), CancelToken.none());
                    await().until(() ->
                            of(p.calls("final"), t.inReplyToMessageId()).size() == 1);
                    String longReply = ("A sentence of the long answer, number one of many. ".repeat(4) + "\n\n")
                            .repeat(4)
                            .strip();
                    model.enqueue(Reply.text(longReply).delayBefore(Duration.ofMillis(300)));
                    page.send("long1", "tell me a lot");
                    page.untilDone("long1");
                    p.verify(all -> {
                        List<PlatformCall> calls = of(all, t.inReplyToMessageId());
                        String draftId =
                                json(calls.getFirst()).path("messageId").asText();
                        assertThat(calls).extracting(PlatformCall::method).containsExactly("draft", "final");
                        assertThat(json(calls.get(1)).path("messageId").asText())
                                .isEqualTo(draftId);
                        assertThat(json(calls.get(1)).path("text").asText()).isEqualTo("the final text");

                        List<JsonNode> frames = of(all, "long1").stream()
                                .map(WebChatProofsTest::json)
                                .toList();
                        String longDraft = frames.getFirst().path("messageId").asText();
                        assertThat(frames.getFirst().path("type").asText()).isEqualTo("draft");
                        List<JsonNode> finals = frames.stream()
                                .filter(f -> f.path("type").asText().equals("final"))
                                .toList();
                        assertThat(finals).hasSizeGreaterThanOrEqualTo(4);
                        assertThat(finals.getFirst().path("messageId").asText()).isEqualTo(longDraft);
                        assertThat(finals.subList(1, finals.size()))
                                .allSatisfy(f -> assertThat(f.has("messageId")).isFalse());
                        assertThat(finals)
                                .allSatisfy(
                                        f -> assertThat(f.path("text").asText().length())
                                                .isLessThanOrEqualTo(TEXT_LIMIT));
                        assertThat(finals.stream()
                                        .map(f -> f.path("text").asText())
                                        .collect(Collectors.joining(" "))
                                        .replaceAll("\\s+", " "))
                                .isEqualTo(longReply.replaceAll("\\s+", " "));
                    });
                })
                .prove(Capability.DISCARD_PENDING, p -> {
                    // SPEC OUT-9: an edit still waiting for its interval is dropped when the final reply comes
                    OutboundTarget t = target();
                    ReplyStream s = adapter.openStream(t);
                    await().until(() ->
                            of(p.calls("draft"), t.inReplyToMessageId()).size() == 1);
                    s.delta("first");
                    s.delta(" and pending");
                    adapter.send(finalReply(t, "final"), CancelToken.none());
                    // a stale edit would arrive within the interval; none does
                    await().during(INTERVAL.multipliedBy(3))
                            .atMost(Duration.ofSeconds(5))
                            .until(() -> page.received.stream()
                                    .noneMatch(c -> c.method().equals("edit")
                                            && json(c).path("id").asText().equals(t.inReplyToMessageId())));
                    p.verify(calls -> assertThat(of(calls, t.inReplyToMessageId()))
                            .extracting(PlatformCall::method)
                            .containsExactly("draft", "final"));
                })
                .prove(Capability.PREVIEW_RECEIPT, p -> {
                    // SPEC OUT-9, OUT-8: the final reply's receipt is the draft's
                    OutboundTarget t = target();
                    ReplyStream s = adapter.openStream(t);
                    await().until(() ->
                            of(p.calls("draft"), t.inReplyToMessageId()).size() == 1);
                    s.delta("shown");
                    MessageReceipt r = adapter.send(finalReply(t, "shown and done"), CancelToken.none());
                    await().until(() ->
                            of(p.calls("final"), t.inReplyToMessageId()).size() == 1);
                    p.verify(calls -> assertThat(of(calls, t.inReplyToMessageId()))
                            .extracting(c -> json(c).path("messageId").asText())
                            .containsExactly(r.primaryId(), r.primaryId()));
                    assertThat(r.primaryId()).startsWith("webchat-draft-");
                })
                .tests();
    }
}
