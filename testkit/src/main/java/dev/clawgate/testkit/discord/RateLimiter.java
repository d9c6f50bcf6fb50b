package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Discord's REST rate limits as developers/topics/rate-limits describes them: per-route buckets (one bucket per route
 * and top-level resource, some routes sharing a bucket, named by {@code X-RateLimit-Bucket}), the headers on every
 * answer ({@code X-RateLimit-Limit}, {@code -Remaining}, {@code -Reset}, {@code -Reset-After}, {@code -Bucket}), the
 * global limit of 50 requests per second, and 429s with {@code Retry-After}, {@code X-RateLimit-Scope},
 * {@code X-RateLimit-Global} and a body with {@code retry_after} and {@code global}. The reference says not to
 * hard-code limits; the fake's defaults are ones Discord has been seen to give. Not thread-safe: called under the
 * fake's lock.
 */
final class RateLimiter {
    /** "All bots can make up to 50 requests per second to our API" (Global Rate Limit). */
    static final int GLOBAL_PER_SECOND = 50;

    /** A route's limit: {@code limit} requests per {@code window}, counted in the bucket called {@code name}. */
    private record RouteLimit(String name, int limit, Duration window) {}

    private static final class Bucket {
        int remaining;
        long resetAtNanos;
        long resetAtEpochMillis;
    }

    private record Injected(RateLimitScope scope, Duration retryAfter) {}

    /** What to answer: 429 or go on, and the rate-limit headers either way. */
    record Decision(boolean limited, Map<String, String> headers, ObjectNode body) {}

    private final Map<String, RouteLimit> routes = new HashMap<>();
    private final Map<String, Bucket> buckets = new HashMap<>();
    private final Map<String, ArrayDeque<Injected>> injected = new HashMap<>();
    private final ArrayDeque<Long> recent = new ArrayDeque<>();
    private int globalPerSecond = GLOBAL_PER_SECOND;
    private final RouteLimit fallback = new RouteLimit("default", 50, Duration.ofSeconds(1));

    RateLimiter() {
        limit(DiscordRoutes.CREATE_MESSAGE, "messages", 5, Duration.ofSeconds(5));
        limit(DiscordRoutes.EDIT_MESSAGE, "edit", 5, Duration.ofSeconds(5));
        limit(DiscordRoutes.DELETE_MESSAGE, "delete", 5, Duration.ofSeconds(1));
        limit(DiscordRoutes.CREATE_REACTION, "reactions", 1, Duration.ofMillis(250));
        limit(DiscordRoutes.DELETE_REACTION, "reactions", 1, Duration.ofMillis(250));
        limit(DiscordRoutes.TYPING, "typing", 5, Duration.ofSeconds(5));
    }

    /** Routes given the same {@code bucketName} share one bucket (per top-level resource). */
    void limit(String route, String bucketName, int limit, Duration window) {
        if (limit < 1) throw new IllegalArgumentException("a bucket allows at least one request");
        routes.put(route, new RouteLimit(bucketName, limit, window));
    }

    void globalPerSecond(int perSecond) {
        if (perSecond < 1) throw new IllegalArgumentException("the global limit allows at least 1 request per second");
        globalPerSecond = perSecond;
    }

    void inject(String route, RateLimitScope scope, Duration retryAfter) {
        injected.computeIfAbsent(route, r -> new ArrayDeque<>()).add(new Injected(scope, retryAfter));
    }

    /** Counts a request to {@code route} on the top-level resource {@code major} and says whether it may go on. */
    Decision check(String route, String major) {
        long now = System.nanoTime();
        RouteLimit rl = routes.getOrDefault(route, fallback);
        String hash = hash(rl.name().equals("default") ? route : rl.name());
        Bucket b = buckets.computeIfAbsent(hash + ":" + major, k -> new Bucket());
        if (b.resetAtNanos == 0 || now - b.resetAtNanos >= 0) {
            b.remaining = rl.limit();
            b.resetAtNanos = now + rl.window().toNanos();
            b.resetAtEpochMillis = System.currentTimeMillis() + rl.window().toMillis();
        }
        ArrayDeque<Injected> q = injected.get(route);
        Injected forced = q == null ? null : q.poll();
        if (forced != null) return refuse(forced.scope(), forced.retryAfter(), rl, hash, b, now);
        while (!recent.isEmpty() && now - recent.peekFirst() >= 1_000_000_000L) recent.pollFirst();
        if (recent.size() >= globalPerSecond) {
            Duration wait = Duration.ofNanos(1_000_000_000L - (now - recent.peekFirst()));
            return refuse(RateLimitScope.GLOBAL, wait, rl, hash, b, now);
        }
        if (b.remaining == 0) {
            return refuse(RateLimitScope.USER, Duration.ofNanos(b.resetAtNanos - now), rl, hash, b, now);
        }
        recent.addLast(now);
        b.remaining--;
        return new Decision(false, headers(rl, hash, b, now), null);
    }

    private Decision refuse(RateLimitScope scope, Duration retryAfter, RouteLimit rl, String hash, Bucket b, long now) {
        double seconds = Math.max(0.001, retryAfter.toNanos() / 1e9);
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Retry-After", Long.toString((long) Math.ceil(seconds)));
        if (scope == RateLimitScope.GLOBAL) {
            h.put("X-RateLimit-Global", "true");
        } else {
            h.putAll(headers(rl, hash, b, now));
            if (scope == RateLimitScope.USER) {
                h.put("X-RateLimit-Remaining", "0");
                h.put("X-RateLimit-Reset-After", decimal(seconds));
            }
        }
        h.put("X-RateLimit-Scope", scope.name().toLowerCase(Locale.ROOT));
        String message =
                scope == RateLimitScope.SHARED ? "The resource is being rate limited." : "You are being rate limited.";
        ObjectNode body = DiscordWorld.JSON
                .createObjectNode()
                .put("message", message)
                .put("retry_after", Math.round(seconds * 1000) / 1000.0)
                .put("global", scope == RateLimitScope.GLOBAL);
        return new Decision(true, h, body);
    }

    private static Map<String, String> headers(RouteLimit rl, String hash, Bucket b, long now) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("X-RateLimit-Limit", Integer.toString(rl.limit()));
        h.put("X-RateLimit-Remaining", Integer.toString(b.remaining));
        h.put("X-RateLimit-Reset", decimal(b.resetAtEpochMillis / 1000.0));
        h.put("X-RateLimit-Reset-After", decimal(Math.max(0, (b.resetAtNanos - now) / 1e9)));
        h.put("X-RateLimit-Bucket", hash);
        return h;
    }

    private static String decimal(double seconds) {
        return String.format(Locale.ROOT, "%.3f", seconds);
    }

    /** Bucket names look like Discord's: an opaque hex hash. */
    private static String hash(String name) {
        try {
            byte[] d = MessageDigest.getInstance("MD5").digest(name.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }
}
