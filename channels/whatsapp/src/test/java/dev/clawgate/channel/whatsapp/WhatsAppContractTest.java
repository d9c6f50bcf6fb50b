package dev.clawgate.channel.whatsapp;

import static dev.clawgate.channel.whatsapp.WhatsAppFixture.dm;
import static dev.clawgate.channel.whatsapp.WhatsAppFixture.finalReply;
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
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import dev.clawgate.testkit.whatsapp.WhatsAppContact;
import dev.clawgate.testkit.whatsapp.WhatsAppGroup;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The adapter contract (SPEC OUT-4, IN-3, CH-12): every declared capability and ack policy proven on the fake. */
class WhatsAppContractTest {
    @TempDir
    Path dir;

    private FakeWhatsAppCloud wa;
    private WhatsAppChannel channel;
    private WhatsAppMessageAdapter adapter;
    private WhatsAppFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();
    private final AtomicReference<InboundSink> sink = new AtomicReference<>(inbox);
    private int people;

    @BeforeEach
    void start() throws Exception {
        wa = WhatsAppFixture.fake();
        channel = WhatsAppFixture.channel(WhatsAppFixture.account(wa, false), dir);
        adapter = (WhatsAppMessageAdapter) channel.messageAdapter();
        channel.start(m -> sink.get().accept(m));
        server = new WhatsAppFixture.RouteServer(channel.webhookRoutes().getFirst());
        wa.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        wa.close();
    }

    /** A new customer who just wrote (their 24-hour window is open); the wamid of what they wrote. */
    private String customerWrote(WhatsAppContact c, String text) {
        String wamid = wa.sendText(c, text);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(wamid)));
        return wamid;
    }

    private WhatsAppContact newContact() {
        people++;
        return wa.contact("1555000" + (1000 + people), "Customer " + people);
    }

    private static JsonNode body(PlatformCall call) {
        try {
            return GraphApi.JSON.readTree(call.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<JsonNode> bodies(List<PlatformCall> calls, String endpoint) {
        return calls.stream()
                .filter(c -> c.method().equals(endpoint))
                .map(WhatsAppContractTest::body)
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> everyDeclaredCapabilityIsProven() {
        return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), wa)
                .prove(Capability.TEXT, p -> {
                    WhatsAppContact c = newContact();
                    customerWrote(c, "hi");
                    // SPEC OUT-4, CH-12: Markdown as WhatsApp formatting, to the customer's wa_id
                    MessageReceipt r = adapter.send(
                            finalReply(dm(c.waId(), null), "hello **world**, *you* ~~not~~"), CancelToken.none());
                    p.verify(calls -> {
                        JsonNode sent = bodies(calls, "messages").getFirst();
                        assertThat(sent.path("messaging_product").asText()).isEqualTo("whatsapp");
                        assertThat(sent.path("recipient_type").asText()).isEqualTo("individual");
                        assertThat(sent.path("to").asText()).isEqualTo(c.waId());
                        assertThat(sent.path("type").asText()).isEqualTo("text");
                        assertThat(sent.path("text").path("body").asText()).isEqualTo("hello *world*, _you_ ~not~");
                        assertThat(sent.has("context")).isFalse();
                    });
                    assertThat(r.primaryId()).isEqualTo(wa.sentTo(c).getFirst().wamid());
                    assertThat(r.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.TEXT));
                })
                .prove(Capability.MEDIA, p -> {
                    WhatsAppContact c = newContact();
                    customerWrote(c, "send me the chart");
                    // SPEC OUT-13, CH-12: a local image is uploaded (multipart) and sent by its media id
                    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
                    Path file = Files.write(dir.resolve("chart.png"), png);
                    OutboundMessage m = new OutboundMessage(
                            dm(c.waId(), null),
                            "",
                            OutboundMessage.Kind.FINAL,
                            2,
                            List.of(new MediaRef(MediaRef.MediaKind.IMAGE, file.toString())),
                            SendOptions.DEFAULT,
                            0);
                    MessageReceipt r = adapter.send(m, CancelToken.none());
                    p.verify(calls -> {
                        assertThat(calls.stream().map(PlatformCall::method).toList())
                                .containsSubsequence("media_upload", "messages");
                        assertThat(calls.stream()
                                        .filter(x -> x.method().equals("media_upload"))
                                        .findFirst()
                                        .orElseThrow()
                                        .headers()
                                        .get("content-type"))
                                .startsWith("multipart/form-data");
                        JsonNode sent = bodies(calls, "messages").getFirst();
                        assertThat(sent.path("type").asText()).isEqualTo("image");
                        assertThat(wa.media(sent.path("image").path("id").asText()))
                                .containsExactly(png);
                    });
                    assertThat(r.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.MEDIA));
                    assertThat(wa.sentTo(c).getFirst().type()).isEqualTo("image");
                })
                .prove(Capability.BATCH, p -> {
                    WhatsAppContact c = newContact();
                    customerWrote(c, "the chart and a word on it?");
                    // SPEC OUT-4, OUT-5, OUT-13: a reply's text and media payloads, in order, each its own message
                    Path png = Files.write(dir.resolve("batch.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
                    OutboundMessage reply = finalReply(dm(c.waId(), null), "");
                    MessageReceipt text = adapter.send(reply.asPart(0, "the chart", List.of()), CancelToken.none());
                    MessageReceipt image = adapter.send(
                            reply.asPart(1, "", List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()))),
                            CancelToken.none());
                    MessageReceipt captioned = adapter.send(
                            reply.asPart(
                                    2,
                                    "with a caption",
                                    List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString()))),
                            CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages"))
                            .extracting(b -> b.path("type").asText())
                            .containsExactly("text", "image", "image"));
                    assertThat(wa.sentTo(c))
                            .extracting(m -> m.type() + ":" + m.text())
                            .containsExactly("text:the chart", "image:null", "image:with a caption");
                    assertThat(List.of(text, image, captioned))
                            .extracting(MessageReceipt::primaryId)
                            .doesNotHaveDuplicates()
                            .doesNotContainNull();
                    assertThat(image.parts())
                            .singleElement()
                            .satisfies(part -> assertThat(part.kind()).isEqualTo(MessageReceipt.PartKind.MEDIA));
                })
                .prove(Capability.REPLY_TO, p -> {
                    WhatsAppContact c = newContact();
                    String asked = customerWrote(c, "what time is it?");
                    // SPEC OUT-3, CH-12: a reply quotes the message it answers with context.message_id
                    OutboundMessage reply = finalReply(dm(c.waId(), asked), "noon")
                            .withOptions(new SendOptions(true, false, false, false));
                    MessageReceipt r = adapter.send(reply, CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages")
                                    .getFirst()
                                    .path("context")
                                    .path("message_id")
                                    .asText())
                            .isEqualTo(asked));
                    assertThat(wa.sentTo(c).getFirst().contextMessageId()).isEqualTo(asked);
                    assertThat(r.replyToId()).isEqualTo(asked);
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    WhatsAppContact c = newContact();
                    customerWrote(c, "the key?");
                    // SPEC RP-1: what the hook decided is exactly what reaches WhatsApp
                    OutboundTarget t = dm(c.waId(), null);
                    SendingHook hook = (text, where) -> new SendingHook.Send(text.replace("sk-secret", "[redacted]"));
                    String hooked = ((SendingHook.Send) hook.onMessageSending("the key is sk-secret", t)).text();
                    adapter.send(finalReply(t, hooked), CancelToken.none());
                    p.verify(calls -> assertThat(bodies(calls, "messages"))
                            .extracting(b -> b.path("text").path("body").asText())
                            .containsExactly("the key is [redacted]"));
                    assertThat(wa.sentTo(c)).extracting(x -> x.text()).containsExactly("the key is [redacted]");
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    WhatsAppContact c = newContact();
                    // SPEC IN-3, IN-4: a notification is answered 200 only once recorded; one the store failed on is
                    // answered 503, delivered again by Meta, and recorded once
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
                        String wamid = wa.sendText(c, "hello");
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> recorded.stream().anyMatch(m -> m.id().equals(wamid)));
                        String delivery = wa.deliveries().getLast().id();
                        await().until(() -> wa.deliveries().getLast().accepted());
                        p.verify(calls -> assertThat(calls.stream()
                                        .filter(x -> x.method().equals(FakeWhatsAppCloud.WEBHOOK_ANSWER)
                                                && delivery.equals(x.headers().get("delivery-id")))
                                        .map(x -> x.headers().get(":status"))
                                        .toList())
                                .containsExactly("503", "200"));
                        assertThat(recorded)
                                .filteredOn(m -> m.id().equals(wamid))
                                .hasSize(1);
                        assertThat(failedOnce).containsExactly(wamid);
                    } finally {
                        sink.set(inbox);
                    }
                })
                .tests();
    }

    @Test
    void aGroupReplyGoesToTheGroupIdAsRecipientTypeGroup() throws Exception {
        // SPEC CH-12, ME-2: groups through the Cloud API's group messaging, with opaque group ids
        WhatsAppContact c = newContact();
        WhatsAppGroup team = wa.group("Team", c);
        String asked = wa.sendGroupText(team, c, "hello group");
        await().until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(asked)));
        OutboundTarget t = new OutboundTarget("whatsapp", "default", team.groupId(), null, asked);
        adapter.send(
                finalReply(t, "hello team").withOptions(new SendOptions(true, false, false, false)),
                CancelToken.none());
        assertThat(wa.sentTo(team)).singleElement().satisfies(m -> {
            assertThat(m.recipientType()).isEqualTo("group");
            assertThat(m.text()).isEqualTo("hello team");
            assertThat(m.contextMessageId()).isEqualTo(asked);
        });
    }
}
