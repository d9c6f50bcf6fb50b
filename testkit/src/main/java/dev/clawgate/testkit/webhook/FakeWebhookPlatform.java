package dev.clawgate.testkit.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A chat platform speaking the generic webhook protocol on loopback. It delivers scripted messages to the gateway's
 * webhook URL, signed, retrying each with a short backoff until it gets a 2xx, as a real platform does after timeouts,
 * 5xx or a refused connection (the gateway may be down while a crash test restarts it); messages of one chat and sender
 * go in order. It serves the callback URL and records every reply, deduplicating nothing, and answers lookups of
 * replies by idempotency key. A 4xx other than 408/429 is final: the message is given up, as platforms do. As a
 * {@link PlatformCallLog} it lists every callback request it received and every answer (ack) it got from the gateway,
 * for the capability harness.
 */
public final class FakeWebhookPlatform implements PlatformCallLog, AutoCloseable {
    /** The {@link PlatformCall#method} of a reply posted to the callback. */
    public static final String CALLBACK_POST = "POST " + CallbackEndpoint.PATH;
    /** The {@link PlatformCall#method} of a lookup by idempotency key. */
    public static final String CALLBACK_LOOKUP = "GET " + CallbackEndpoint.PATH;
    /**
     * The {@link PlatformCall#method} of the gateway's answer to one of the platform's posts: the body is the answer's,
     * header {@code :status} its status, {@code message-id} the message posted.
     */
    public static final String GATEWAY_ANSWER = "answer to POST";

    private static final Logger LOG = LoggerFactory.getLogger(FakeWebhookPlatform.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one single post got back. */
    public record Response(int status, String body) {}

    private final PlatformSignature signature;
    private final CallbackEndpoint callback;
    private final HttpClient http;
    private final ConcurrentLinkedQueue<PlatformCall> calls = new ConcurrentLinkedQueue<>();
    private final ExecutorService lanes = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, LinkedBlockingQueue<PlatformMessage>> laneQueues = new ConcurrentHashMap<>();
    private final Semaphore concurrentPosts;
    private final Map<String, AtomicLong> attemptsById = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> acceptedOrder = new ConcurrentLinkedQueue<>();
    private final Map<String, Boolean> accepted = new ConcurrentHashMap<>();
    private final Map<String, Integer> refused = new ConcurrentHashMap<>();
    private final AtomicLong scheduled = new AtomicLong();
    private final AtomicLong posts = new AtomicLong();
    private final AtomicLong failedPosts = new AtomicLong();
    private volatile URI webhook;
    private volatile Duration minBackoff = Duration.ofMillis(25);
    private volatile Duration maxBackoff = Duration.ofMillis(400);
    private volatile boolean closed;

    private FakeWebhookPlatform(String secret, int maxConcurrentPosts) throws IOException {
        this.signature = new PlatformSignature(secret);
        this.callback = new CallbackEndpoint(signature, Clock.systemUTC(), calls::add);
        this.concurrentPosts = new Semaphore(maxConcurrentPosts);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    /** Starts the callback server on a free port of 127.0.0.1; at most 32 posts to the gateway at once. */
    public static FakeWebhookPlatform start(String secret) {
        return start(secret, 32);
    }

    public static FakeWebhookPlatform start(String secret, int maxConcurrentPosts) {
        try {
            return new FakeWebhookPlatform(Objects.requireNonNull(secret, "secret"), maxConcurrentPosts);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake webhook platform", e);
        }
    }

    /** Where the gateway posts replies: configure it as the channel's {@code callback_url}. */
    public String callbackUrl() {
        return callback.url();
    }

    /** The gateway's webhook URL, e.g. {@code http://127.0.0.1:PORT/webhooks/generic}. */
    public FakeWebhookPlatform deliverTo(URI webhookUrl) {
        this.webhook = Objects.requireNonNull(webhookUrl);
        return this;
    }

    /** The pause between attempts at one message: doubling from {@code min} up to {@code max}. */
    public FakeWebhookPlatform retryBackoff(Duration min, Duration max) {
        this.minBackoff = min;
        this.maxBackoff = max;
        return this;
    }

    /** Queues messages for delivery; each chat + sender lane delivers its messages in the order given. */
    public void deliver(List<PlatformMessage> messages) {
        if (webhook == null) throw new IllegalStateException("call deliverTo(url) first");
        for (PlatformMessage m : messages) {
            scheduled.incrementAndGet();
            laneQueues.computeIfAbsent(m.lane(), this::openLane).add(m);
        }
    }

    public void deliver(PlatformMessage... messages) {
        deliver(Arrays.asList(messages));
    }

    /** One signed post of {@code message}, no retry. */
    public Response postOnce(PlatformMessage message) throws IOException, InterruptedException {
        byte[] body = message.body();
        return post(body, signature.sign(body));
    }

    /** One post of raw bytes with the given signature header (null: none), no retry. */
    public Response post(byte[] body, String signatureHeader) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(webhook)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signatureHeader != null) b.header(PlatformSignature.HEADER, signatureHeader);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        recordAnswer(messageId(body), r);
        return new Response(r.statusCode(), r.body());
    }

    private void recordAnswer(String messageId, HttpResponse<String> r) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":status", Integer.toString(r.statusCode()));
        if (messageId != null) headers.put("message-id", messageId);
        calls.add(new PlatformCall(GATEWAY_ANSWER, r.body(), headers));
    }

    private static String messageId(byte[] body) {
        try {
            JsonNode id = JSON.readTree(body).path("id");
            return id.isValueNode() ? id.asText() : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    /** The signature header value the platform would send for {@code body}. */
    public String sign(byte[] body) {
        return signature.sign(body);
    }

    private LinkedBlockingQueue<PlatformMessage> openLane(String lane) {
        LinkedBlockingQueue<PlatformMessage> q = new LinkedBlockingQueue<>();
        lanes.submit(() -> runLane(q));
        return q;
    }

    private void runLane(LinkedBlockingQueue<PlatformMessage> q) {
        try {
            while (!closed) deliverUntilAnswered(q.take());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deliverUntilAnswered(PlatformMessage m) throws InterruptedException {
        byte[] body = m.body();
        String header = signature.sign(body);
        long backoff = minBackoff.toMillis();
        while (!closed) {
            int status = attempt(m, body, header);
            if (status / 100 == 2) {
                if (accepted.putIfAbsent(m.id(), Boolean.TRUE) == null) acceptedOrder.add(m.id());
                return;
            }
            if (status / 100 == 4 && status != 408 && status != 429) {
                refused.put(m.id(), status);
                LOG.info("gateway refused message {} with HTTP {}; giving it up", m.id(), status);
                return;
            }
            Thread.sleep(backoff);
            backoff = Math.min(backoff * 2, maxBackoff.toMillis());
        }
    }

    /** One attempt; the status, or -1 when the gateway could not be reached or did not answer. */
    private int attempt(PlatformMessage m, byte[] body, String header) throws InterruptedException {
        attemptsById.computeIfAbsent(m.id(), k -> new AtomicLong()).incrementAndGet();
        posts.incrementAndGet();
        concurrentPosts.acquire();
        try {
            HttpRequest req = HttpRequest.newBuilder(webhook)
                    .timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header(PlatformSignature.HEADER, header)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            recordAnswer(m.id(), r);
            if (r.statusCode() / 100 != 2) failedPosts.incrementAndGet();
            return r.statusCode();
        } catch (IOException e) {
            failedPosts.incrementAndGet();
            LOG.debug("post of {} failed: {}", m.id(), e.toString());
            return -1;
        } finally {
            concurrentPosts.release();
        }
    }

    // --- what happened, for assertions

    /** Messages handed to {@link #deliver} so far. */
    public long scheduled() {
        return scheduled.get();
    }

    /** Distinct messages the gateway answered 2xx. */
    public int accepted() {
        return accepted.size();
    }

    public boolean isAccepted(String id) {
        return accepted.containsKey(id);
    }

    /** Ids the gateway accepted, in the order it accepted them. */
    public List<String> acceptedIds() {
        return List.copyOf(acceptedOrder);
    }

    /** Messages given up after a final 4xx, with that status. */
    public Map<String, Integer> refused() {
        return Map.copyOf(refused);
    }

    /** Every post made, retries included. */
    public long posts() {
        return posts.get();
    }

    /** Posts that got no answer or a non-2xx one. */
    public long failedPosts() {
        return failedPosts.get();
    }

    /** How many posts message {@code id} took (0 if never tried). */
    public long attempts(String id) {
        AtomicLong a = attemptsById.get(id);
        return a == null ? 0 : a.get();
    }

    /** Every reply received, in arrival order. */
    public List<CallbackReply> replies() {
        return callback.replies();
    }

    /** Replies answering the platform message {@code id}. */
    public List<CallbackReply> repliesTo(String id) {
        return replies().stream().filter(r -> id.equals(r.inReplyTo())).toList();
    }

    /** Final replies per answered message id, counting only those the platform accepted. */
    public Map<String, Long> finalRepliesPerMessage() {
        return replies().stream()
                .filter(r -> r.isFinal() && r.accepted() && r.inReplyTo() != null)
                .collect(Collectors.groupingBy(CallbackReply::inReplyTo, LinkedHashMap::new, Collectors.counting()));
    }

    /** Final replies the platform kept per idempotency key: more than one is a duplicate the platform showed twice. */
    public Map<String, Long> finalRepliesPerKey() {
        return replies().stream()
                .filter(r -> r.isFinal() && r.accepted() && r.idempotencyKey() != null)
                .collect(Collectors.groupingBy(
                        CallbackReply::idempotencyKey, LinkedHashMap::new, Collectors.counting()));
    }

    /** Lookups by idempotency key the gateway made, answered or not. */
    public int lookups() {
        return callback.lookups();
    }

    /** Every callback request received and every answer the gateway gave the platform's posts, oldest first. */
    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    /** The calls whose method is {@code method}, e.g. {@link #CALLBACK_LOOKUP}. */
    public List<PlatformCall> calls(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).toList();
    }

    /** Answers the next callbacks with these statuses, in order, then 200 again; a 2xx is kept, the rest are not. */
    public FakeWebhookPlatform scriptCallbackStatuses(int... statuses) {
        for (int s : statuses) callback.script(CallbackAnswer.status(s));
        return this;
    }

    /**
     * Answers the next callbacks as scripted, in order, then 200 again: e.g. a reply kept but answered too late
     * ({@link CallbackAnswer#acceptedButLate}), so the gateway cannot tell whether it arrived.
     */
    public FakeWebhookPlatform scriptCallbacks(CallbackAnswer... answers) {
        callback.script(answers);
        return this;
    }

    /**
     * Calls {@code listener} with each reply as it arrives, before the gateway gets its answer, so a test can see what
     * happened up to that moment (it runs on the callback's handler thread).
     */
    public FakeWebhookPlatform onReply(Consumer<CallbackReply> listener) {
        callback.onReply(Objects.requireNonNull(listener));
        return this;
    }

    /** Callbacks whose body was not reply JSON. */
    public int unreadableCallbacks() {
        return callback.unreadable();
    }

    @Override
    public void close() {
        closed = true;
        lanes.shutdownNow();
        try {
            if (!lanes.awaitTermination(5, TimeUnit.SECONDS)) LOG.warn("webhook platform lanes still running");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        http.close();
        callback.close();
    }
}
