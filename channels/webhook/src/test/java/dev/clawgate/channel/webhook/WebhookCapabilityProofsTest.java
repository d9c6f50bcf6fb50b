package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.internal.outbound.DirectDelivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.outbound.OutboxRecovery;
import dev.clawgate.core.internal.outbound.Pacer;
import dev.clawgate.core.internal.outbound.Payloads;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.testkit.contract.CapabilityProofs;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.webhook.CallbackAnswer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

// The webhook adapter's contract (SPEC OUT-4): every declared capability and ack policy is proven by what reached
// FakeWebhookPlatform, through the production send paths (DirectDelivery, Outbox) and the channel's real HTTP route.
class WebhookCapabilityProofsTest {
    private static final String SECRET = "proof-secret-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET);
    private HttpServer gateway;

    @AfterEach
    void close() {
        if (gateway != null) gateway.stop(0);
        platform.close();
    }

    @TestFactory
    Stream<DynamicTest> withoutReconcile() {
        return proofs(channel(false)).tests();
    }

    @TestFactory
    Stream<DynamicTest> withReconcile() {
        WebhookChannel channel = channel(true);
        return proofs(channel)
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {
                    // SPEC OUT-7: a reply kept but answered too late is found by its key and acknowledged, never resent
                    InMemoryStore store = new InMemoryStore();
                    Outbox outbox = new Outbox(
                            store, Clock.systemUTC(), new Payloads(null), OutboxSettings::defaults, () -> 0.5);
                    platform.scriptCallbacks(CallbackAnswer.acceptedButLate(TIMEOUT.multipliedBy(3)));
                    OutboxEntry late = pendingReply(store, "in-1", "kept but late");
                    assertThat(outbox.deliver(late, channel.messageAdapter())).isInstanceOf(DeliveryOutcome.Sent.class);
                    assertThat(store.outbox().entry(late.id()).orElseThrow().state())
                            .isEqualTo(OutboxState.SENT);
                    // a process that died mid-send left this one `sending`; the restart finds it on the platform
                    OutboxEntry cut = pendingReply(store, "in-2", "cut by a crash");
                    channel.messageAdapter().send(cut.draft().message(cut.turnId()), CancelToken.none());
                    assertThat(store.outbox().claim(cut.id())).isTrue();
                    OutboxRecovery.Result r = outbox.recover(name -> Optional.of(channel.messageAdapter()), Pacer.NONE);
                    assertThat(r.reconciled()).isEqualTo(1);
                    assertThat(store.outbox().entry(cut.id()).orElseThrow().state())
                            .isEqualTo(OutboxState.SENT);
                    p.verify(calls -> {
                        List<String> keys = calls.stream()
                                .filter(c -> c.method().equals(FakeWebhookPlatform.CALLBACK_POST))
                                .map(c -> field(c, "idempotency_key"))
                                .toList();
                        List<String> lookups = calls.stream()
                                .filter(c -> c.method().equals(FakeWebhookPlatform.CALLBACK_LOOKUP))
                                .map(c -> c.headers().get(":path"))
                                .toList();
                        String k1 = "clawgate-" + late.turnId() + "-final-0";
                        String k2 = "clawgate-" + cut.turnId() + "-final-0";
                        assertThat(keys).as("each reply posted once").containsExactly(k1, k2);
                        assertThat(lookups)
                                .containsExactly("/callback?idempotency_key=" + k1, "/callback?idempotency_key=" + k2);
                    });
                })
                .tests();
    }

    private WebhookChannel channel(boolean reconcile) {
        return new WebhookChannel(
                new WebhookChannelSettings(null, SECRET, platform.callbackUrl(), reconcile),
                Clock.systemUTC(),
                TIMEOUT);
    }

    private CapabilityProofs proofs(WebhookChannel channel) {
        DirectDelivery direct = new DirectDelivery(new Payloads(null));
        return CapabilityProofs.of(channel.messageAdapter().capabilities(), channel.ackPolicies(), platform)
                .prove(Capability.TEXT, p -> {
                    direct.deliver(
                            reply("Grüße ✓ \"quoted\"", "t-1", "m-1", SendOptions.DEFAULT),
                            channel.messageAdapter(),
                            CancelToken.none());
                    p.verify(calls -> assertThat(posts(calls))
                            .singleElement()
                            .satisfies(c -> assertThat(field(c, "text")).isEqualTo("Grüße ✓ \"quoted\"")));
                })
                .prove(Capability.REPLY_TO, p -> {
                    direct.deliver(
                            reply("answers m-2", null, "m-2", SendOptions.DEFAULT),
                            channel.messageAdapter(),
                            CancelToken.none());
                    direct.deliver(
                            reply("answers nothing", null, "m-3", SendOptions.DEFAULT.withoutReplyTo()),
                            channel.messageAdapter(),
                            CancelToken.none());
                    p.verify(calls -> assertThat(posts(calls))
                            .extracting(c -> field(c, "in_reply_to"))
                            .containsExactly("m-2", null));
                })
                .prove(Capability.THREAD, p -> {
                    direct.deliver(
                            reply("in the thread", "t-9", "m-4", SendOptions.DEFAULT),
                            channel.messageAdapter(),
                            CancelToken.none());
                    p.verify(calls -> assertThat(posts(calls))
                            .singleElement()
                            .satisfies(c -> assertThat(field(c, "thread")).isEqualTo("t-9")));
                })
                .prove(Capability.MESSAGE_SENDING_HOOKS, p -> {
                    SendingHook shout = (text, target) -> new SendingHook.Send(text.toUpperCase(java.util.Locale.ROOT));
                    SendingHook veto = (text, target) -> new SendingHook.Suppress("policy");
                    new DirectDelivery(new Payloads(shout))
                            .deliver(
                                    reply("hooked", null, "m-5", SendOptions.DEFAULT),
                                    channel.messageAdapter(),
                                    CancelToken.none());
                    DeliveryOutcome vetoed = new DirectDelivery(new Payloads(veto))
                            .deliver(
                                    reply("vetoed", null, "m-6", SendOptions.DEFAULT),
                                    channel.messageAdapter(),
                                    CancelToken.none());
                    assertThat(vetoed).isInstanceOf(DeliveryOutcome.Suppressed.class);
                    p.verify(calls -> assertThat(posts(calls))
                            .extracting(c -> field(c, "text"))
                            .containsExactly("HOOKED"));
                })
                .prove(Capability.PAYLOAD, p -> {
                    // SPEC OUT-4 payload, AG-5: a message_send's platform-native payload goes through the outbox and
                    // reaches the
                    // platform as the JSON object it is, beside the text
                    InMemoryStore store = new InMemoryStore();
                    Outbox outbox = new Outbox(
                            store, Clock.systemUTC(), new Payloads(null), OutboxSettings::defaults, () -> 0.5);
                    OutboxEntry card = store.outbox()
                            .enqueue(
                                    7,
                                    OutboundDraft.send(
                                            new OutboundTarget("webhook", "default", "room-1", null, null),
                                            "the build card",
                                            "send-card",
                                            "{\"card\":{\"title\":\"Build 42\",\"buttons\":[\"retry\"]}}"));
                    assertThat(outbox.deliver(card, channel.messageAdapter())).isInstanceOf(DeliveryOutcome.Sent.class);
                    assertThat(store.outbox().entry(card.id()).orElseThrow().state())
                            .isEqualTo(OutboxState.SENT);
                    p.verify(calls -> assertThat(posts(calls)).singleElement().satisfies(c -> {
                        JsonNode body = JSON.readTree(c.body());
                        assertThat(body.path("text").asText()).isEqualTo("the build card");
                        assertThat(body.path("kind").asText()).isEqualTo("send");
                        assertThat(body.path("payload")
                                        .path("card")
                                        .path("title")
                                        .asText())
                                .isEqualTo("Build 42");
                        assertThat(body.path("payload")
                                        .path("card")
                                        .path("buttons")
                                        .path(0)
                                        .asText())
                                .isEqualTo("retry");
                    }));
                })
                .prove(AckPolicy.AFTER_RECEIVE_RECORD, p -> {
                    // SPEC IN-3, IN-4: the 200 (the ack) leaves only after the sink returned from the inbox commit
                    AtomicReference<List<PlatformCall>> seenDuringCommit = new AtomicReference<>();
                    AtomicReference<Boolean> storeDown = new AtomicReference<>(false);
                    channel.start(m -> {
                        seenDuringCommit.set(platform.calls(FakeWebhookPlatform.GATEWAY_ANSWER));
                        if (storeDown.get())
                            throw new StoreException("record inbound failed", new SQLException("disk I/O error"));
                        return InboundSink.Acceptance.recorded(41);
                    });
                    platform.deliverTo(serve(channel.webhookRoutes().getFirst()));
                    FakeWebhookPlatform.Response ok =
                            platform.postOnce(PlatformMessage.direct("in-7", "alice", "hello"));
                    List<PlatformCall> beforeAck = seenDuringCommit.get();
                    storeDown.set(true);
                    FakeWebhookPlatform.Response down =
                            platform.postOnce(PlatformMessage.direct("in-8", "alice", "again"));
                    assertThat(ok.status()).isEqualTo(200);
                    assertThat(down.status()).isEqualTo(503);
                    p.verify(calls -> {
                        List<PlatformCall> answers = calls.stream()
                                .filter(c -> c.method().equals(FakeWebhookPlatform.GATEWAY_ANSWER))
                                .toList();
                        assertThat(answers)
                                .extracting(
                                        c -> c.headers().get("message-id"),
                                        c -> c.headers().get(":status"))
                                .containsExactly(
                                        org.assertj.core.groups.Tuple.tuple("in-7", "200"),
                                        org.assertj.core.groups.Tuple.tuple("in-8", "503"));
                        assertThat(answers.getFirst().body()).contains("\"inbox_id\":41");
                        assertThat(beforeAck)
                                .as("answers the platform had while the inbox committed")
                                .isEmpty();
                    });
                });
    }

    private static OutboundMessage reply(String text, String thread, String inReplyTo, SendOptions options) {
        return new OutboundMessage(
                new OutboundTarget("webhook", "default", "room-1", thread, inReplyTo),
                text,
                OutboundMessage.Kind.FINAL,
                1,
                List.of(),
                options,
                0);
    }

    private static OutboxEntry pendingReply(InMemoryStore store, String inboundId, String text) {
        InboundMessage m = new InboundMessage(
                inboundId,
                "webhook",
                "default",
                "alice",
                "Alice",
                "room-1",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "question " + inboundId,
                List.of(),
                null);
        SessionKey session = SessionKey.of(m);
        long turn = store.inbox()
                .record(m, session, null, Duration.ZERO)
                .orElseThrow()
                .id();
        return store.outbox()
                .completeTurnWithReply(
                        session,
                        turn,
                        text,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
    }

    private static List<PlatformCall> posts(List<PlatformCall> calls) {
        return calls.stream()
                .filter(c -> c.method().equals(FakeWebhookPlatform.CALLBACK_POST))
                .toList();
    }

    private static String field(PlatformCall call, String name) {
        try {
            JsonNode v = JSON.readTree(call.body()).get(name);
            return v == null || v.isNull() ? null : v.asText();
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + call.body(), e);
        }
    }

    /** Mounts the channel's route on a loopback port, as the server module does with Javalin. */
    private URI serve(WebhookRoute route) throws IOException {
        gateway = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        gateway.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        gateway.createContext(route.path(), ex -> {
            try (ex) {
                Map<String, String> headers = new LinkedHashMap<>();
                ex.getRequestHeaders()
                        .forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.getFirst()));
                WebhookRoute.Response r = route.handler()
                        .handle(new WebhookRoute.Request(
                                headers,
                                ex.getRequestBody().readAllBytes(),
                                ex.getRemoteAddress().getAddress().getHostAddress()));
                ex.getResponseHeaders().set("Content-Type", r.contentType());
                ex.sendResponseHeaders(r.status(), r.body().length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(r.body());
                }
            }
        });
        gateway.start();
        return URI.create("http://127.0.0.1:" + gateway.getAddress().getPort() + route.path());
    }
}
