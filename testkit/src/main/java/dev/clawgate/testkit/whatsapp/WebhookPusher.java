package dev.clawgate.testkit.whatsapp;

import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Meta's side of the webhook: POSTs each notification, signed with {@code X-Hub-Signature-256}, to the target, and
 * redelivers it with a growing pause until the target answers 200 (Graph API webhooks: a notification that is not
 * answered 200 is retried). Notifications of one lane (one customer or group) go in order. Also drives the subscription
 * handshake ({@code GET ?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...}).
 */
final class WebhookPusher {
    private final MetaSignature signature;
    private final Consumer<PlatformCall> calls;
    private final ExecutorService executor;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final Map<String, LinkedBlockingQueue<Delivery>> lanes = new ConcurrentHashMap<>();
    private final Map<String, Delivery> deliveries = new LinkedHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile URI target;
    private volatile Duration minBackoff = Duration.ofMillis(20);
    private volatile Duration maxBackoff = Duration.ofMillis(500);
    private volatile int maxAttempts = Integer.MAX_VALUE;
    private volatile boolean closed;

    /** What one single request got back. */
    record Answer(int status, String body) {}

    private static final class Delivery {
        final String id;
        final byte[] body;
        final List<Integer> attempts = new ArrayList<>();
        volatile boolean accepted;

        Delivery(String id, byte[] body) {
            this.id = id;
            this.body = body;
        }
    }

    WebhookPusher(MetaSignature signature, Consumer<PlatformCall> calls, ExecutorService executor) {
        this.signature = signature;
        this.calls = calls;
        this.executor = executor;
    }

    void target(URI uri) {
        this.target = uri;
    }

    boolean hasTarget() {
        return target != null;
    }

    void backoff(Duration min, Duration max, int attempts) {
        this.minBackoff = min;
        this.maxBackoff = max;
        this.maxAttempts = attempts;
    }

    /** Queues a notification on a lane; returns its delivery id. */
    String push(String lane, byte[] body) {
        if (target == null) throw new IllegalStateException("call deliverTo(webhook url) first");
        Delivery d = new Delivery("delivery-" + ids.incrementAndGet(), body);
        synchronized (deliveries) {
            deliveries.put(d.id, d);
        }
        lanes.computeIfAbsent(lane, this::openLane).add(d);
        return d.id;
    }

    /** The same notification once more, as Meta does when it did not see the 200 (a duplicate for the receiver). */
    String redeliver(String deliveryId, String lane) {
        Delivery d;
        synchronized (deliveries) {
            d = deliveries.get(deliveryId);
        }
        if (d == null) throw new IllegalArgumentException("no delivery " + deliveryId);
        return push(lane, d.body);
    }

    List<WebhookDelivery> deliveries() {
        List<WebhookDelivery> out = new ArrayList<>();
        synchronized (deliveries) {
            for (Delivery d : deliveries.values()) {
                synchronized (d.attempts) {
                    out.add(new WebhookDelivery(
                            d.id, new String(d.body, StandardCharsets.UTF_8), d.attempts, d.accepted));
                }
            }
        }
        return out;
    }

    /** One POST, no retry, with the given signature header (null: none). */
    Answer postOnce(byte[] body, String signatureHeader) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(target)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("User-Agent", "facebookexternalua")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signatureHeader != null) b.header(MetaSignature.HEADER, signatureHeader);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** The verification request Meta sends when the webhook is subscribed. */
    Answer verify(URI webhook, String mode, String verifyToken, String challenge)
            throws IOException, InterruptedException {
        String q =
                "hub.mode=" + enc(mode) + "&hub.verify_token=" + enc(verifyToken) + "&hub.challenge=" + enc(challenge);
        URI uri = URI.create(webhook + (webhook.getRawQuery() == null ? "?" : "&") + q);
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    void close() {
        closed = true;
    }

    private LinkedBlockingQueue<Delivery> openLane(String lane) {
        LinkedBlockingQueue<Delivery> q = new LinkedBlockingQueue<>();
        executor.submit(() -> {
            try {
                while (!closed) deliverUntilAccepted(q.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return q;
    }

    private void deliverUntilAccepted(Delivery d) throws InterruptedException {
        long pause = minBackoff.toMillis();
        for (int attempt = 0; attempt < maxAttempts && !closed; attempt++) {
            int status;
            try {
                Answer a = postOnce(d.body, signature.sign(d.body));
                status = a.status();
                Map<String, String> h = new LinkedHashMap<>();
                h.put(":status", Integer.toString(status));
                h.put("delivery-id", d.id);
                calls.accept(new PlatformCall(FakeWhatsAppCloud.WEBHOOK_ANSWER, a.body(), h));
            } catch (IOException e) {
                status = -1;
            }
            synchronized (d.attempts) {
                d.attempts.add(status);
            }
            if (status == 200) { // Meta wants exactly 200; any other answer is retried
                d.accepted = true;
                return;
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, maxBackoff.toMillis());
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
