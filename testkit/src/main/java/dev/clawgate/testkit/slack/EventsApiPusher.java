package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Slack's side of the Events API over HTTP (docs.slack.dev/apis/events-api): every event POSTed as JSON to the Request
 * URL, signed ({@link SlackSignature}), and retried when the app does not answer 2xx within 3 seconds ("Responding to
 * events", "Failure conditions"): up to three retries carrying {@code X-Slack-Retry-Num} and
 * {@code X-Slack-Retry-Reason}, none when a failing answer carries {@code X-Slack-No-Retry: 1}. Slack's schedule is
 * "nearly immediately, after 1 minute, after 5 minutes"; the fake keeps the order but compresses the waits (see
 * {@link #retryDelays}).
 */
final class EventsApiPusher {
    static final Duration SLACK_ACK_TIMEOUT = Duration.ofSeconds(3);
    static final String EVENT_ANSWER = "answer to event push";
    private static final int MAX_IN_FLIGHT = 64;

    /** The app's answer to one POST: status, body and headers (lower-case names). */
    record Answer(int status, String body, Map<String, String> headers) {}

    private final SlackSignature signature;
    private final ExecutorService executor;
    private final Consumer<PlatformCall> calls;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final List<EventDelivery> deliveries = new CopyOnWriteArrayList<>();
    private final List<ObjectNode> waiting = new ArrayList<>();
    private volatile URI target;
    private volatile Duration ackTimeout = SLACK_ACK_TIMEOUT;
    private volatile List<Duration> retryDelays = List.of(Duration.ZERO, Duration.ofMillis(600), Duration.ofSeconds(3));
    private volatile boolean closed;

    EventsApiPusher(SlackSignature signature, ExecutorService executor, Consumer<PlatformCall> calls) {
        this.signature = signature;
        this.executor = executor;
        this.calls = calls;
    }

    /** Sets the Request URL; events published while none was set are sent now. */
    void target(URI url) {
        List<ObjectNode> flush;
        synchronized (waiting) {
            target = url;
            flush = List.copyOf(waiting);
            waiting.clear();
        }
        flush.forEach(this::push);
    }

    boolean hasTarget() {
        return target != null;
    }

    void ackTimeout(Duration timeout) {
        this.ackTimeout = timeout;
    }

    void retryDelays(List<Duration> delays) {
        if (delays.size() > 3) throw new IllegalArgumentException("Slack retries an event at most 3 times");
        this.retryDelays = List.copyOf(delays);
    }

    List<EventDelivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Sends {@code callback} in the background, with Slack's retries. */
    void push(ObjectNode callback) {
        synchronized (waiting) {
            if (target == null) {
                waiting.add(callback);
                return;
            }
        }
        executor.submit(() -> deliver(callback));
    }

    private void deliver(ObjectNode callback) {
        byte[] body = callback.toString().getBytes(StandardCharsets.UTF_8);
        String eventId = callback.path("event_id").asText(null);
        String type =
                callback.path("event").path("type").asText(callback.path("type").asText());
        String reason = null;
        List<Duration> delays = retryDelays;
        for (int attempt = 0; attempt <= delays.size() && !closed; attempt++) {
            if (attempt > 0 && !pause(delays.get(attempt - 1))) return;
            long ts = System.currentTimeMillis() / 1000;
            String failure;
            int status = -1;
            boolean noRetry = false;
            try {
                inFlight.acquire();
                try {
                    Answer a = post(body, ts, signature.sign(ts, body), attempt, reason);
                    status = a.status();
                    failure = status / 100 == 2 ? null : "http_error";
                    noRetry = "1".equals(a.headers().get("x-slack-no-retry"));
                } finally {
                    inFlight.release();
                }
            } catch (HttpTimeoutException e) {
                failure = "http_timeout";
            } catch (ConnectException e) {
                failure = "connection_failed";
            } catch (IOException e) {
                failure = "unknown_error";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            deliveries.add(new EventDelivery(eventId, type, attempt, reason, status, failure, Instant.now()));
            if (failure == null || noRetry) return;
            reason = failure;
        }
    }

    private static boolean pause(Duration d) {
        try {
            Thread.sleep(d);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * One signed POST, as Slack sends it: JSON, the two signing headers, and the retry headers when {@code retryNum >
     * 0}. The app's answer is logged as a platform call.
     */
    Answer post(byte[] body, long timestamp, String signatureHeader, int retryNum, String retryReason)
            throws IOException, InterruptedException {
        URI url = target;
        if (url == null) throw new IllegalStateException("no Request URL: call deliverEventsTo(url) first");
        HttpRequest.Builder b = HttpRequest.newBuilder(url)
                .timeout(ackTimeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
                .header(SlackSignature.TIMESTAMP_HEADER, Long.toString(timestamp))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signatureHeader != null) b.header(SlackSignature.SIGNATURE_HEADER, signatureHeader);
        if (retryNum > 0) {
            b.header("X-Slack-Retry-Num", Integer.toString(retryNum));
            b.header("X-Slack-Retry-Reason", retryReason == null ? "unknown_error" : retryReason);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        Map<String, String> headers = new LinkedHashMap<>();
        r.headers().map().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
        Map<String, String> logged = new LinkedHashMap<>();
        logged.put(":status", Integer.toString(r.statusCode()));
        logged.put("x-slack-retry-num", Integer.toString(retryNum));
        String eventId = eventId(body);
        if (eventId != null) logged.put("event-id", eventId);
        calls.accept(new PlatformCall(EVENT_ANSWER, r.body(), logged));
        return new Answer(r.statusCode(), r.body(), headers);
    }

    /**
     * Slack's check of a new Request URL (docs.slack.dev/reference/events/url_verification): a signed
     * {@code url_verification} with a random {@code challenge}, which the app must echo — as plain text, form, or JSON
     * {@code {"challenge": ...}}. Returns whether it did.
     */
    boolean verifyUrl(String verificationToken) throws IOException, InterruptedException {
        String challenge = UUID.randomUUID().toString().replace("-", "");
        ObjectNode n = SlackWorld.JSON
                .createObjectNode()
                .put("token", verificationToken)
                .put("challenge", challenge)
                .put("type", "url_verification");
        byte[] body = n.toString().getBytes(StandardCharsets.UTF_8);
        long ts = System.currentTimeMillis() / 1000;
        Answer a = post(body, ts, signature.sign(ts, body), 0, null);
        if (a.status() != 200) return false;
        String text = a.body().strip();
        if (text.equals(challenge) || text.equals("challenge=" + challenge)) return true;
        try {
            return challenge.equals(
                    SlackWorld.JSON.readTree(text).path("challenge").asText());
        } catch (IOException notJson) {
            return false;
        }
    }

    private static String eventId(byte[] body) {
        try {
            return SlackWorld.JSON.readTree(body).path("event_id").asText(null);
        } catch (IOException notJson) {
            return null;
        }
    }

    void close() {
        closed = true;
    }
}
