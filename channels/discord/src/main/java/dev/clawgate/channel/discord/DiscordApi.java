package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Discord's HTTP API over {@code java.net.http} (developers/reference, "HTTP API", "Authentication"): JSON bodies,
 * {@code Authorization: Bot <token>}, the {@code DiscordBot} User-Agent. Hand written: a handful of routes, and no
 * request is ever repeated blindly (the JDK client does not retry a POST; a call whose answer is lost is
 * {@link DiscordApiException.Reach#UNKNOWN}).
 *
 * <p>Rate limits (developers/topics/rate-limits; SPEC CH-5, OUT-7): each answer's {@code X-RateLimit-Bucket},
 * {@code -Limit}, {@code -Remaining} and {@code -Reset-After} are kept per bucket and top-level resource (the channel
 * id), routes naming the same bucket share it; no request is sent into an exhausted bucket, it waits for the reset
 * instead, and no more than 50 requests a second leave over all routes (the bot's global limit). A 429 (the bot's, a
 * shared resource's, or the global limit, {@code X-RateLimit-Global}) was not executed: the wait it names is kept
 * (globally for a global one) and the request made again after it. A wait longer than {@code maxWait} is not waited
 * here: the call fails as rate limited, and the outbox retries after it.
 */
final class DiscordApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final String USER_AGENT = "DiscordBot (https://github.com/clawgate/clawgate, 0.1)";
    private static final int MAX_429 = 3;
    private static final int GLOBAL_PER_SECOND = 50;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL = TimeUnit.MILLISECONDS.toNanos(10);
    /** Added to a bucket's reset: Discord counts the window from when it received the first request. */
    private static final long MARGIN = TimeUnit.MILLISECONDS.toNanos(30);

    private static final class Bucket {
        int limit = 1;
        int remaining = 1;
        long resetAt;
        long window = TimeUnit.SECONDS.toNanos(1);
    }

    private final URI apiBase;
    private final String token;
    private final HttpClient http;
    private final Duration callTimeout;
    private final Duration maxWait;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, String> bucketOfRoute = new HashMap<>();
    private final Map<String, Bucket> buckets = new HashMap<>();
    private long globalUntil;
    /** When the requests of the last second left: Discord allows a bot 50 a second over all routes. */
    private final java.util.ArrayDeque<Long> recent = new java.util.ArrayDeque<>();

    private int inFlight;

    DiscordApi(URI apiBase, String token, HttpClient http, Duration callTimeout, Duration maxWait) {
        this.apiBase = apiBase;
        this.token = token;
        this.http = http;
        this.callTimeout = callTimeout;
        this.maxWait = maxWait;
    }

    static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    URI apiBase() {
        return apiBase;
    }

    JsonNode get(String route, String path) throws DiscordApiException {
        return call("GET", route, "", path, null, CancelToken.none());
    }

    /**
     * One request of {@code route} (e.g. {@code POST /channels/{channel.id}/messages}) at {@code path}, counted in the
     * bucket of {@code route} and {@code major}. {@code cancel} aborts it (SPEC OUT-11): while it waits for a bucket or
     * before it leaves, with {@link dev.clawgate.core.run.CancelledException}; in flight, the outcome is unknown.
     *
     * @return the answer's JSON, or an empty object for 204 No Content
     */
    JsonNode call(String verb, String route, String major, String path, JsonNode body, CancelToken cancel)
            throws DiscordApiException {
        return body == null
                ? call(verb, route, major, path, null, null, cancel)
                : call(
                        verb,
                        route,
                        major,
                        path,
                        "application/json",
                        body.toString().getBytes(StandardCharsets.UTF_8),
                        cancel);
    }

    /** As {@link #call(String, String, String, String, JsonNode, CancelToken)}, with a body of {@code type}. */
    JsonNode call(String verb, String route, String major, String path, String type, byte[] body, CancelToken cancel)
            throws DiscordApiException {
        for (int attempt = 0; ; attempt++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(apiBase + path))
                    .timeout(callTimeout)
                    .header("Authorization", "Bot " + token)
                    .header("User-Agent", USER_AGENT);
            if (body != null) {
                b.header("Content-Type", type).method(verb, HttpRequest.BodyPublishers.ofByteArray(body));
            } else {
                b.method(verb, HttpRequest.BodyPublishers.noBody());
            }
            awaitBucket(route, major, cancel);
            HttpResponse<String> r;
            try {
                cancel.throwIfCancelled();
                r = exchange(route, b.build(), cancel);
            } finally {
                done();
            }
            JsonNode answer = parse(r.body());
            if (r.statusCode() == 429) {
                Duration wait = limited(route, major, r, answer);
                if (attempt + 1 < MAX_429 && wait.compareTo(maxWait) <= 0) continue;
                throw new DiscordApiException(
                        route + " rate limited by Discord: retry after " + wait.toMillis() + " ms",
                        DiscordApiException.Reach.ANSWERED,
                        429,
                        0,
                        wait,
                        null);
            }
            learn(route, major, r);
            if (r.statusCode() >= 200 && r.statusCode() < 300) return answer == null ? JSON.createObjectNode() : answer;
            int code = answer == null ? 0 : answer.path("code").asInt(0);
            String message = answer == null ? "" : answer.path("message").asText("");
            throw new DiscordApiException(
                    route + " failed: HTTP " + r.statusCode() + (code == 0 ? "" : " code " + code)
                            + (message.isEmpty() ? "" : " " + redact(message)),
                    DiscordApiException.Reach.ANSWERED,
                    r.statusCode(),
                    code,
                    null,
                    null);
        }
    }

    /** Waits until the route's bucket (and the global limit) lets one more request go, and counts it. */
    private void awaitBucket(String route, String major, CancelToken cancel) throws DiscordApiException {
        while (true) {
            long wait;
            lock.lock();
            try {
                long now = System.nanoTime();
                String hash = bucketOfRoute.get(route);
                Bucket bucket = hash == null ? null : buckets.get(hash + ":" + major);
                while (!recent.isEmpty() && now - recent.peekFirst() >= SECOND) recent.pollFirst();
                if (globalUntil - now > 0) {
                    wait = globalUntil - now;
                } else if (recent.size() + inFlight >= GLOBAL_PER_SECOND) {
                    // the bot's global limit, kept here rather than learnt from a 429
                    wait = recent.isEmpty() ? POLL : SECOND - (now - recent.peekFirst()) + MARGIN;
                } else if (bucket == null) {
                    inFlight++;
                    return;
                } else if (bucket.resetAt - now <= 0) {
                    // a new window began: its size is the limit last seen
                    bucket.remaining = bucket.limit - 1;
                    bucket.resetAt = now + bucket.window;
                    inFlight++;
                    return;
                } else if (bucket.remaining > 0) {
                    bucket.remaining--;
                    inFlight++;
                    return;
                } else {
                    wait = bucket.resetAt - now + MARGIN;
                }
            } finally {
                lock.unlock();
            }
            Duration d = Duration.ofNanos(wait);
            if (d.compareTo(maxWait) > 0) {
                throw new DiscordApiException(
                        route + " not sent: its rate-limit bucket resets in " + d.toMillis() + " ms",
                        DiscordApiException.Reach.NOT_SENT,
                        429,
                        0,
                        d,
                        null);
            }
            try {
                if (cancel.await(Math.max(1, d.toMillis()), TimeUnit.MILLISECONDS)) cancel.throwIfCancelled();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DiscordApiException(
                        route + " interrupted while waiting for its bucket",
                        DiscordApiException.Reach.NOT_SENT,
                        0,
                        0,
                        null,
                        e);
            }
        }
    }

    /**
     * A request counted by {@link #awaitBucket} is over: it counts in the global window from now, when Discord has
     * surely seen it (counting from when it left would let a slow first request slip out of the window too early).
     */
    private void done() {
        lock.lock();
        try {
            inFlight--;
            recent.addLast(System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /** Keeps what an answer says of its bucket. */
    private void learn(String route, String major, HttpResponse<String> r) {
        String hash = r.headers().firstValue("X-RateLimit-Bucket").orElse(null);
        if (hash == null) return;
        lock.lock();
        try {
            bucketOfRoute.put(route, hash);
            Bucket b = buckets.computeIfAbsent(hash + ":" + major, k -> new Bucket());
            long now = System.nanoTime();
            b.limit = (int) number(r, "X-RateLimit-Limit", b.limit);
            double resetAfter = number(r, "X-RateLimit-Reset-After", -1);
            int remaining = (int) number(r, "X-RateLimit-Remaining", b.remaining);
            if (resetAfter >= 0) {
                long reset = now + (long) (resetAfter * 1e9);
                if (remaining == b.limit - 1) b.window = Math.max(b.window, reset - now);
                if (reset - b.resetAt > TimeUnit.MILLISECONDS.toNanos(50)) {
                    // a new window
                    b.remaining = remaining;
                    b.resetAt = reset;
                } else {
                    // the same window (answers may come out of order): the fewest remaining, the latest reset
                    b.remaining = Math.min(b.remaining, remaining);
                    b.resetAt = Math.max(b.resetAt, reset);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** A 429: the wait it names, kept for the bucket or for every route when it is global. */
    private Duration limited(String route, String major, HttpResponse<String> r, JsonNode body) {
        double seconds = body != null && body.has("retry_after")
                ? body.get("retry_after").asDouble(1)
                : number(r, "Retry-After", 1);
        boolean global = (body != null && body.path("global").asBoolean(false))
                || r.headers()
                        .firstValue("X-RateLimit-Global")
                        .map("true"::equalsIgnoreCase)
                        .orElse(false);
        long wait = (long) (Math.max(0.001, seconds) * 1e9);
        lock.lock();
        try {
            long now = System.nanoTime();
            if (global) {
                globalUntil = now + wait;
            } else {
                String hash = r.headers().firstValue("X-RateLimit-Bucket").orElse(bucketOfRoute.get(route));
                if (hash != null) {
                    bucketOfRoute.put(route, hash);
                    Bucket b = buckets.computeIfAbsent(hash + ":" + major, k -> new Bucket());
                    b.remaining = 0;
                    b.resetAt = now + wait;
                    b.limit = (int) number(r, "X-RateLimit-Limit", b.limit);
                }
            }
        } finally {
            lock.unlock();
        }
        return Duration.ofNanos(wait);
    }

    private static double number(HttpResponse<String> r, String header, double fallback) {
        try {
            return r.headers().firstValue(header).map(Double::parseDouble).orElse(fallback);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    /** {@code s} with the token replaced, wherever it appears. */
    String redact(String s) {
        return s == null || token == null ? s : s.replace(token, "<token>");
    }

    private HttpResponse<String> exchange(String route, HttpRequest request, CancelToken cancel)
            throws DiscordApiException {
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) throw aborted(route, cancel);
            if (e.getCause() instanceof IOException io) throw failure(route, io);
            throw new DiscordApiException(
                    route + " failed: "
                            + (e.getCause() == null ? e : e.getCause())
                                    .getClass()
                                    .getSimpleName(),
                    DiscordApiException.Reach.UNKNOWN,
                    0,
                    0,
                    null,
                    e.getCause());
        } catch (CancellationException e) {
            throw aborted(route, cancel);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new DiscordApiException(route + " interrupted", DiscordApiException.Reach.UNKNOWN, 0, 0, null, null);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
    }

    private static DiscordApiException aborted(String route, CancelToken cancel) {
        return new DiscordApiException(
                route + " aborted in flight: the run was cancelled (" + cancel.reason() + "); Discord may have it",
                DiscordApiException.Reach.UNKNOWN,
                0,
                0,
                null,
                null);
    }

    private DiscordApiException failure(String route, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException
                || e.getCause() instanceof ConnectException;
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new DiscordApiException(
                route + (notSent ? " could not reach " : " got no answer from ") + apiBase.getHost() + ": " + what,
                notSent ? DiscordApiException.Reach.NOT_SENT : DiscordApiException.Reach.UNKNOWN,
                0,
                0,
                null,
                null);
    }
}
