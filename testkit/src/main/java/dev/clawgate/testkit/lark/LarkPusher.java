package dev.clawgate.testkit.lark;

import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * HTTP event subscription as the platform pushes: each event POSTed to the request URL (encrypted into
 * {@code {"encrypt": ...}} and signed with {@code X-Lark-Signature} when an {@code encrypt_key} is set) until it is
 * answered 200, with backoff; each answer logged as {@value FakeLark#WEBHOOK_ANSWER}.
 */
final class LarkPusher {
    private final String encryptKey;
    private final LarkDeliveries deliveries;
    private final Consumer<PlatformCall> calls;
    private final ExecutorService executor;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    volatile URI target;
    volatile boolean closed;
    volatile Duration retryMin = Duration.ofMillis(20);
    volatile Duration retryMax = Duration.ofMillis(500);
    volatile int retryAttempts = 50;

    LarkPusher(String encryptKey, LarkDeliveries deliveries, Consumer<PlatformCall> calls, ExecutorService executor) {
        this.encryptKey = encryptKey;
        this.deliveries = deliveries;
        this.calls = calls;
        this.executor = executor;
    }

    void push(String id) {
        byte[] body = body(deliveries.json(id));
        executor.submit(() -> deliverUntilAccepted(id, body));
    }

    byte[] body(String json) {
        String out = encryptKey == null
                ? json
                : LarkEvents.JSON
                        .createObjectNode()
                        .put("encrypt", LarkCrypto.encrypt(encryptKey, json))
                        .toString();
        return out.getBytes(StandardCharsets.UTF_8);
    }

    Map<String, String> signedHeaders(byte[] body) {
        if (encryptKey == null) return Map.of();
        String ts = Long.toString(Instant.now().getEpochSecond());
        String nonce = UUID.randomUUID().toString();
        return Map.of(
                LarkCrypto.TIMESTAMP,
                ts,
                LarkCrypto.NONCE,
                nonce,
                LarkCrypto.SIGNATURE,
                LarkCrypto.sign(ts, nonce, encryptKey, body));
    }

    FakeLark.Answer postOnce(byte[] body, Map<String, String> headers) throws IOException, InterruptedException {
        if (target == null) throw new IllegalStateException("call deliverTo(webhook url) first");
        HttpRequest.Builder b = HttpRequest.newBuilder(target)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json; charset=utf-8");
        headers.forEach(b::header);
        HttpResponse<String> r = client.send(
                b.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new FakeLark.Answer(r.statusCode(), r.body());
    }

    private void deliverUntilAccepted(String id, byte[] body) {
        long pause = retryMin.toMillis();
        for (int attempt = 0; attempt < retryAttempts && !closed; attempt++) {
            int status;
            deliveries.attempted(id);
            try {
                FakeLark.Answer a = postOnce(body, signedHeaders(body));
                status = a.status();
                calls.accept(new PlatformCall(
                        FakeLark.WEBHOOK_ANSWER,
                        a.body(),
                        Map.of(":status", Integer.toString(status), "delivery-id", id)));
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (status == 200) {
                deliveries.accepted(id);
                return;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pause = Math.min(pause * 2, retryMax.toMillis());
        }
    }
}
