package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bot OpenAPI (SPEC CH-13): the app access token from {@code token_url} ({@code appId} and {@code clientSecret} in
 * a JSON POST; {@code access_token} and {@code expires_in}, seconds, as a string), kept until shortly before it
 * expires, and every call authorized {@code QQBot <token>}. A call answered "token not exist or expire" (11244, or a
 * bare 401) fetches a new token and is made once more. A call is otherwise never repeated here; one whose answer was
 * lost is {@link QqApiException.Reach#UNKNOWN}. The token and the secret never reach a log or an error.
 */
final class QqApi {
    static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Renewed this long before it expires: the platform hands out a new token only within the last 60 s of the old one
     * (which stays valid meanwhile), so asking earlier would return the same token.
     */
    static final Duration REFRESH_MARGIN = Duration.ofSeconds(50);

    private final QqAccount account;
    private final HttpClient http;
    private final Clock clock;
    private final ReentrantLock tokenLock = new ReentrantLock();
    private volatile String token;
    private volatile Instant renewAt = Instant.MIN;

    QqApi(QqAccount account, HttpClient http, Clock clock) {
        this.account = account;
        this.http = http;
        this.clock = clock;
    }

    static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    HttpClient http() {
        return http;
    }

    /** A JSON call under {@code api_base} ({@code body} null: none); the answer's root. */
    JsonNode call(String verb, String path, ObjectNode body, CancelToken cancel) throws QqApiException {
        HttpRequest.BodyPublisher p = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8);
        for (int attempt = 0; ; attempt++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(account.apiBase() + path))
                    .timeout(account.callTimeout())
                    .header("Authorization", "QQBot " + token(attempt > 0))
                    .header("X-Union-Appid", account.appId())
                    .header("Content-Type", "application/json")
                    .method(verb, p)
                    .build();
            try {
                return exchange(verb + " " + path.replaceAll("/[A-Za-z0-9_-]{16,}", "/{id}"), r, cancel);
            } catch (QqApiException e) {
                // SPEC CH-13: a token the platform no longer takes is fetched again, and the call made once more
                if (!e.tokenInvalid() || attempt > 0) throw e;
            }
        }
    }

    /** The access token; {@code renew}: fetched anew whatever is cached (the platform refused it). */
    String token(boolean renew) throws QqApiException {
        String seen = token;
        if (!renew && seen != null && clock.instant().isBefore(renewAt)) return seen;
        tokenLock.lock();
        try {
            // another thread renewed it while this one waited
            if (token != null && token != seen && clock.instant().isBefore(renewAt)) return token;
            if (!renew && token != null && clock.instant().isBefore(renewAt)) return token;
            ObjectNode b =
                    JSON.createObjectNode().put("appId", account.appId()).put("clientSecret", account.clientSecret());
            HttpRequest r = HttpRequest.newBuilder(account.tokenUrl())
                    .timeout(account.callTimeout())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(b.toString(), StandardCharsets.UTF_8))
                    .build();
            JsonNode answer = exchange("getAppAccessToken", r, CancelToken.none());
            String t = answer.path("access_token").asText("");
            long expires = answer.path("expires_in").asLong(0); // a string of seconds: asLong parses it
            if (t.isEmpty() || expires <= 0) {
                throw new QqApiException(
                        "getAppAccessToken answered no access_token (code "
                                + answer.path("code").asInt(0) + ")",
                        QqApiException.Reach.ANSWERED,
                        200,
                        answer.path("code").asInt(0));
            }
            Duration life = Duration.ofSeconds(expires);
            Duration margin = life.compareTo(REFRESH_MARGIN.multipliedBy(2)) > 0 ? REFRESH_MARGIN : life.dividedBy(2);
            renewAt = clock.instant().plus(life).minus(margin);
            token = t;
            return t;
        } finally {
            tokenLock.unlock();
        }
    }

    private JsonNode exchange(String what, HttpRequest request, CancelToken cancel) throws QqApiException {
        cancel.throwIfCancelled();
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        HttpResponse<String> r;
        try {
            r = call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw failure(what, io);
            throw new QqApiException(what + " failed: " + e.getCause(), QqApiException.Reach.UNKNOWN, 0, 0);
        } catch (CancellationException e) {
            throw new QqApiException(
                    what + " aborted in flight: the run was cancelled; QQ may have it",
                    QqApiException.Reach.UNKNOWN,
                    0,
                    0);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new QqApiException(what + " interrupted", QqApiException.Reach.UNKNOWN, 0, 0);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
        JsonNode body = parse(r.body());
        int code = body == null ? 0 : body.path("code").asInt(0);
        if (r.statusCode() / 100 == 2 && code == 0) return body == null ? JSON.createObjectNode() : body;
        String msg =
                body == null ? "HTTP " + r.statusCode() : body.path("message").asText("HTTP " + r.statusCode());
        return throwing(new QqApiException(
                what + " failed: HTTP " + r.statusCode() + ", code " + code + " " + msg,
                QqApiException.Reach.ANSWERED,
                r.statusCode(),
                code));
    }

    private static JsonNode throwing(QqApiException e) throws QqApiException {
        throw e;
    }

    static JsonNode parse(String s) {
        if (s == null || s.isBlank()) return null;
        try {
            return JSON.readTree(s);
        } catch (IOException notJson) {
            return null;
        }
    }

    private QqApiException failure(String what, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof ConnectException;
        return new QqApiException(
                what
                        + (notSent ? " could not reach the platform: " : " got no answer: ")
                        + e.getClass().getSimpleName(),
                notSent ? QqApiException.Reach.NOT_SENT : QqApiException.Reach.UNKNOWN,
                0,
                0);
    }
}
