package dev.clawgate.testkit.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

// The fake platform that crash and load tests drive the webhook channel with (SPEC IN-1, IN-3, IN-4, OUT-12).
class FakeWebhookPlatformTest {
    private static final String SECRET = "a-shared-secret-of-some-length";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private HttpServer gateway;
    private FakeWebhookPlatform platform;

    record Received(JsonNode body, String signature, boolean signatureMatches) {}

    @AfterEach
    void close() {
        if (platform != null) platform.close();
        if (gateway != null) gateway.stop(0);
    }

    /** A stand-in gateway on {@code port} (0: any) answering each post with {@code status}. */
    private URI fakeGateway(int port, IntSupplier status) throws IOException {
        gateway = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        gateway.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        gateway.createContext("/webhooks/generic", ex -> {
            try (ex) {
                byte[] body = ex.getRequestBody().readAllBytes();
                String sig = ex.getRequestHeaders().getFirst("X-Clawgate-Signature");
                received.add(new Received(JSON.readTree(body), sig, new PlatformSignature(SECRET).matches(body, sig)));
                answer(ex, status.getAsInt());
            }
        });
        gateway.start();
        return URI.create("http://127.0.0.1:" + gateway.getAddress().getPort() + "/webhooks/generic");
    }

    private static void answer(HttpExchange ex, int status) throws IOException {
        ex.sendResponseHeaders(status, -1);
    }

    @Test
    void signaturesFollowHmacSha256OverTheRawBody() {
        // SPEC IN-5: RFC 4231 test case 2 (key "Jefe")
        PlatformSignature sig = new PlatformSignature("Jefe");
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        assertThat(sig.sign(data)).isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assertThat(sig.matches(data, sig.sign(data))).isTrue();
        assertThat(sig.matches("what do ya want for nothing!".getBytes(StandardCharsets.US_ASCII), sig.sign(data)))
                .isFalse();
    }

    @Test
    void aMessageIsRetriedThrough5xxUntilTheGatewayAnswers2xx() throws Exception {
        // SPEC IN-4: a 503 makes the platform retry; the 2xx is the ack
        AtomicInteger calls = new AtomicInteger();
        URI url = fakeGateway(0, () -> calls.incrementAndGet() <= 2 ? 503 : 200);
        platform = FakeWebhookPlatform.start(SECRET)
                .deliverTo(url)
                .retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20));
        platform.deliver(new PlatformMessage(
                "m-1", "alice", "Alice", "room-1", "group", "t-1", true, "hello", 1_700_000_000_000L));

        await().atMost(Duration.ofSeconds(10)).until(() -> platform.accepted() == 1);
        assertThat(platform.attempts("m-1")).isEqualTo(3);
        assertThat(platform.failedPosts()).isEqualTo(2);
        assertThat(received).hasSize(3).allMatch(Received::signatureMatches);
        JsonNode body = received.peek().body();
        assertThat(body.path("id").asText()).isEqualTo("m-1");
        assertThat(body.path("sender_name").asText()).isEqualTo("Alice");
        assertThat(body.path("chat_type").asText()).isEqualTo("group");
        assertThat(body.path("thread").asText()).isEqualTo("t-1");
        assertThat(body.path("mentioned").asBoolean()).isTrue();
        assertThat(body.path("timestamp").asLong()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aRefusedConnectionIsRetriedUntilTheGatewayComesUp() throws Exception {
        // SPEC IN-4: the gateway is down during a kill; the platform keeps the message
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        platform = FakeWebhookPlatform.start(SECRET)
                .deliverTo(URI.create("http://127.0.0.1:" + port + "/webhooks/generic"))
                .retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20));
        platform.deliver(PlatformMessage.direct("m-1", "bob", "first"), PlatformMessage.direct("m-2", "bob", "second"));
        await().atMost(Duration.ofSeconds(10)).until(() -> platform.failedPosts() >= 3);
        assertThat(platform.accepted()).isZero();

        fakeGateway(port, () -> 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> platform.accepted() == 2);
        assertThat(platform.acceptedIds()).containsExactly("m-1", "m-2");
        assertThat(received).extracting(r -> r.body().path("id").asText()).containsExactly("m-1", "m-2");
    }

    @Test
    void aFinal4xxGivesTheMessageUpAndTheLaneMovesOn() throws Exception {
        // SPEC IN-5: a rejected request is not retried forever
        AtomicInteger calls = new AtomicInteger();
        URI url = fakeGateway(0, () -> calls.incrementAndGet() == 1 ? 400 : 200);
        platform = FakeWebhookPlatform.start(SECRET).deliverTo(url);
        platform.deliver(PlatformMessage.direct("bad", "carol", "x"), PlatformMessage.direct("good", "carol", "y"));

        await().atMost(Duration.ofSeconds(10)).until(() -> platform.accepted() == 1);
        assertThat(platform.refused()).containsEntry("bad", 400);
        assertThat(platform.isAccepted("good")).isTrue();
        assertThat(platform.attempts("bad")).isEqualTo(1);
    }

    @Test
    void lanesOfDifferentSendersDeliverIndependently() throws Exception {
        // SPEC DI-2: a stuck sender does not hold up the others
        URI url = fakeGateway(0, () -> 200);
        platform = FakeWebhookPlatform.start(SECRET, 4).deliverTo(url);
        List<PlatformMessage> all = new java.util.ArrayList<>();
        for (int s = 0; s < 10; s++)
            for (int i = 0; i < 5; i++) all.add(PlatformMessage.direct("s" + s + "-" + i, "s" + s, "t"));
        platform.deliver(all);

        await().atMost(Duration.ofSeconds(10)).until(() -> platform.accepted() == 50);
        for (int s = 0; s < 10; s++) {
            String prefix = "s" + s + "-";
            assertThat(platform.acceptedIds().stream()
                            .filter(id -> id.startsWith(prefix))
                            .toList())
                    .containsExactly(prefix + 0, prefix + 1, prefix + 2, prefix + 3, prefix + 4);
        }
        assertThat(platform.scheduled()).isEqualTo(50);
        assertThat(platform.posts()).isEqualTo(50);
    }

    @Test
    void callbacksAreRecordedWithTheirSignatureCheckAndScriptedStatus() throws Exception {
        // SPEC OUT-12: replies are counted per message they answer
        List<CallbackReply> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        platform = FakeWebhookPlatform.start(SECRET).scriptCallbackStatuses(500).onReply(heard::add);
        HttpClient client = HttpClient.newHttpClient();
        String reply =
                "{\"chat\":\"c\",\"thread\":null,\"text\":\"hi\",\"in_reply_to\":\"m-9\",\"turn_id\":7,\"kind\":\"fin"
                        + "al\"}";
        byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> first = client.send(
                HttpRequest.newBuilder(URI.create(platform.callbackUrl()))
                        .header("X-Clawgate-Signature", platform.sign(bytes))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> second = client.send(
                HttpRequest.newBuilder(URI.create(platform.callbackUrl()))
                        .header("X-Clawgate-Signature", "sha256=00")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> junk = client.send(
                HttpRequest.newBuilder(URI.create(platform.callbackUrl()))
                        .POST(HttpRequest.BodyPublishers.ofString("nope"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).contains("\"id\":\"reply-");
        assertThat(junk.statusCode()).isEqualTo(400);
        assertThat(platform.unreadableCallbacks()).isEqualTo(1);
        List<CallbackReply> replies = platform.repliesTo("m-9");
        assertThat(replies).hasSize(2);
        assertThat(replies.get(0).signatureValid()).isTrue();
        assertThat(replies.get(0).accepted()).isFalse();
        assertThat(replies.get(1).signatureValid()).isFalse();
        assertThat(replies.get(1).turnId()).isEqualTo(7);
        assertThat(replies.get(1).isFinal()).isTrue();
        assertThat(platform.finalRepliesPerMessage()).containsExactly(java.util.Map.entry("m-9", 1L));
        assertThat(heard).isEqualTo(replies);
    }

    private static final String KEYED =
            "{\"chat\":\"c\",\"text\":\"hi\",\"in_reply_to\":\"m-5\",\"turn_id\":5,\"kind\":\"final\","
                    + "\"idempotency_key\":\"clawgate-5-final-0\"}";

    private HttpResponse<String> postReply(HttpClient client, String json, Duration timeout) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return client.send(
                HttpRequest.newBuilder(URI.create(platform.callbackUrl()))
                        .timeout(timeout)
                        .header("X-Clawgate-Signature", platform.sign(bytes))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> lookup(HttpClient client, String key, boolean signed) throws Exception {
        String query = "idempotency_key=" + key;
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(platform.callbackUrl() + "?" + query))
                .GET();
        b.header("X-Clawgate-Signature", signed ? platform.sign(query.getBytes(StandardCharsets.UTF_8)) : "sha256=00");
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aReplyKeptButAnsweredTooLateTimesTheClientOutAndCanBeLookedUpByItsKey() throws Exception {
        // SPEC OUT-7: an ambiguous send: the platform has the message, the client cannot know; reconcile finds it
        platform = FakeWebhookPlatform.start(SECRET)
                .scriptCallbacks(CallbackAnswer.acceptedButLate(Duration.ofSeconds(3)));
        HttpClient client = HttpClient.newHttpClient();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> postReply(client, KEYED, Duration.ofMillis(300)))
                .isInstanceOf(java.net.http.HttpTimeoutException.class);

        HttpResponse<String> found = lookup(client, "clawgate-5-final-0", true);
        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(found.body()).path("id").asText()).isEqualTo("reply-1");
        assertThat(lookup(client, "clawgate-6-final-0", true).statusCode()).isEqualTo(404);
        assertThat(lookup(client, "clawgate-5-final-0", false).statusCode()).isEqualTo(401);
        assertThat(platform.lookups()).isEqualTo(3);
        assertThat(platform.finalRepliesPerKey()).containsExactly(java.util.Map.entry("clawgate-5-final-0", 1L));
    }

    @Test
    void aReplyKeptThenHungUpOnFailsTheClientAfterItsRequestWasWritten() throws Exception {
        // SPEC OUT-7: a reset after the request was written: the platform kept it
        platform = FakeWebhookPlatform.start(SECRET).scriptCallbacks(CallbackAnswer.acceptedThenHangUp());
        HttpClient client = HttpClient.newHttpClient();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> postReply(client, KEYED, Duration.ofSeconds(5)))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(java.net.http.HttpTimeoutException.class);
        assertThat(platform.replies())
                .singleElement()
                .satisfies(r -> assertThat(r.accepted()).isTrue());
        assertThat(lookup(client, "clawgate-5-final-0", true).statusCode()).isEqualTo(200);
    }

    @Test
    void theSameKeyPostedTwiceIsKeptAndCountedTwiceButLooksUpTheFirst() throws Exception {
        // SPEC OUT-12: the fake deduplicates nothing, so a duplicate reply is visible; 429 carries Retry-After
        platform = FakeWebhookPlatform.start(SECRET).scriptCallbacks(CallbackAnswer.rateLimited(Duration.ofSeconds(7)));
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> limited = postReply(client, KEYED, Duration.ofSeconds(5));
        HttpResponse<String> first = postReply(client, KEYED, Duration.ofSeconds(5));
        HttpResponse<String> second = postReply(client, KEYED, Duration.ofSeconds(5));

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(JSON.readTree(first.body()).path("id").asText()).isEqualTo("reply-1");
        assertThat(JSON.readTree(second.body()).path("id").asText()).isEqualTo("reply-2");
        assertThat(platform.finalRepliesPerKey()).containsExactly(java.util.Map.entry("clawgate-5-final-0", 2L));
        assertThat(platform.finalRepliesPerMessage()).containsExactly(java.util.Map.entry("m-5", 2L));
        assertThat(JSON.readTree(lookup(client, "clawgate-5-final-0", true).body())
                        .path("id")
                        .asText())
                .isEqualTo("reply-1");
    }

    @Test
    void theCallLogListsCallbackRequestsAndTheGatewaysAnswers() throws Exception {
        // SPEC OUT-4: what the capability harness checks proofs against; SPEC IN-3: the gateway's answer is the ack
        URI url = fakeGateway(0, () -> 200);
        platform = FakeWebhookPlatform.start(SECRET).deliverTo(url);
        platform.postOnce(PlatformMessage.direct("m-1", "alice", "hi"));
        HttpClient client = HttpClient.newHttpClient();
        postReply(client, KEYED, Duration.ofSeconds(5));
        lookup(client, "clawgate-5-final-0", true);

        assertThat(platform.calls())
                .extracting(dev.clawgate.testkit.contract.PlatformCall::method)
                .containsExactly(
                        FakeWebhookPlatform.GATEWAY_ANSWER,
                        FakeWebhookPlatform.CALLBACK_POST,
                        FakeWebhookPlatform.CALLBACK_LOOKUP);
        assertThat(platform.calls().get(0).headers())
                .containsEntry(":status", "200")
                .containsEntry("message-id", "m-1");
        assertThat(platform.calls().get(1).body()).isEqualTo(KEYED);
        assertThat(platform.calls().get(2).headers())
                .containsEntry(":path", "/callback?idempotency_key=clawgate-5-final-0");
    }
}
