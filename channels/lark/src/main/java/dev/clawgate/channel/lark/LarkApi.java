package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The open platform's HTTP API (SPEC CH-11) under {@code <api_base>/open-apis}: the tenant token from
 * {@code auth/v3/tenant_access_token/internal} ({@code app_id}, {@code app_secret}), kept until shortly before its
 * {@code expire} and fetched again then, or once at once when a call answers 99991663/99991664 (the call is then made
 * once more). A call is otherwise never repeated here; one whose answer was lost is
 * {@link LarkApiException.Reach#UNKNOWN}. The token never reaches a log or an error.
 */
final class LarkApi {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The token is renewed this long before its expiry (the platform hands out a new one in the last 30 min). */
    static final Duration REFRESH_MARGIN = Duration.ofMinutes(5);

    static final long MAX_DOWNLOAD = 30L * 1024 * 1024;

    private final LarkAccount account;
    private final HttpClient http;
    private final Clock clock;
    private final ReentrantLock tokenLock = new ReentrantLock();
    private volatile String token;
    private volatile Instant renewAt = Instant.MIN;

    LarkApi(LarkAccount account, HttpClient http, Clock clock) {
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

    /** A JSON call ({@code body} null: none); the answer's root, whose {@code code} was 0. */
    JsonNode call(String verb, String path, ObjectNode body, CancelToken cancel) throws LarkApiException {
        HttpRequest.BodyPublisher p = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8);
        return authorized(verb, path, "application/json; charset=utf-8", p, cancel);
    }

    /** {@code POST im/v1/images} ({@code image_type=message}); the {@code image_key}. */
    String uploadImage(String fileName, byte[] bytes, CancelToken cancel) throws LarkApiException {
        String boundary = "clawgate-" + UUID.randomUUID();
        ByteArrayOutputStream b = new ByteArrayOutputStream(bytes.length + 512);
        b.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"image_type\"\r\n\r\nmessage\r\n")
                .getBytes(StandardCharsets.UTF_8));
        String safe = fileName.replaceAll("[\"\\r\\n\\\\]", "_");
        b.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"" + safe
                        + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        b.writeBytes(bytes);
        b.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        JsonNode r = authorized(
                "POST",
                "im/v1/images",
                "multipart/form-data; boundary=" + boundary,
                HttpRequest.BodyPublishers.ofByteArray(b.toByteArray()),
                cancel);
        String key = r.path("data").path("image_key").asText("");
        if (key.isEmpty()) {
            throw new LarkApiException(
                    "image upload answered no image_key", LarkApiException.Reach.ANSWERED, 200, 0, null);
        }
        return key;
    }

    /** {@code GET im/v1/messages/{id}/resources/{key}?type=image}: the bytes, at most {@link #MAX_DOWNLOAD}. */
    byte[] resource(String messageId, String key, String type) throws LarkApiException {
        String path = "im/v1/messages/" + messageId + "/resources/" + key + "?type=" + type;
        for (int attempt = 0; ; attempt++) {
            HttpRequest r = HttpRequest.newBuilder(uri(path))
                    .timeout(account.callTimeout())
                    .header("Authorization", "Bearer " + token(attempt > 0))
                    .GET()
                    .build();
            HttpResponse<InputStream> resp;
            try {
                resp = http.send(r, HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                throw failure("resource download", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LarkApiException("resource download interrupted", LarkApiException.Reach.UNKNOWN, 0, 0, e);
            }
            try (InputStream in = resp.body()) {
                if (resp.statusCode() / 100 != 2) {
                    LarkApiException e = error(
                            "resource download",
                            resp.statusCode(),
                            new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
                    if (e.tokenInvalid() && attempt == 0) continue;
                    throw e;
                }
                byte[] bytes = in.readNBytes((int) MAX_DOWNLOAD + 1);
                if (bytes.length > MAX_DOWNLOAD) {
                    throw new LarkApiException(
                            "resource larger than " + MAX_DOWNLOAD + " bytes",
                            LarkApiException.Reach.ANSWERED,
                            200,
                            0,
                            null);
                }
                return bytes;
            } catch (IOException e) {
                throw failure("resource download", e);
            }
        }
    }

    private JsonNode authorized(
            String verb, String path, String contentType, HttpRequest.BodyPublisher body, CancelToken cancel)
            throws LarkApiException {
        for (int attempt = 0; ; attempt++) {
            HttpRequest r = HttpRequest.newBuilder(uri(path))
                    .timeout(account.callTimeout())
                    .header("Authorization", "Bearer " + token(attempt > 0))
                    .header("Content-Type", contentType)
                    .method(verb, body)
                    .build();
            try {
                return exchange(path, r, cancel);
            } catch (LarkApiException e) {
                // SPEC CH-11: a token the platform no longer takes is fetched again, and the call made once more
                if (!e.tokenInvalid() || attempt > 0) throw e;
            }
        }
    }

    /** The tenant token; {@code renew}: fetched anew whatever is cached (the platform refused it). */
    String token(boolean renew) throws LarkApiException {
        if (!renew && token != null && clock.instant().isBefore(renewAt)) return token;
        String stale = token;
        tokenLock.lock();
        try {
            if (token != null && token != stale && clock.instant().isBefore(renewAt)) return token;
            if (!renew && token != null && clock.instant().isBefore(renewAt)) return token;
            ObjectNode b =
                    JSON.createObjectNode().put("app_id", account.appId()).put("app_secret", account.appSecret());
            HttpRequest r = HttpRequest.newBuilder(uri("auth/v3/tenant_access_token/internal"))
                    .timeout(account.callTimeout())
                    .header("Content-Type", "application/json; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(b.toString(), StandardCharsets.UTF_8))
                    .build();
            JsonNode answer = exchange("tenant_access_token", r, CancelToken.none());
            String t = answer.path("tenant_access_token").asText("");
            long expire = answer.path("expire").asLong(0);
            if (t.isEmpty() || expire <= 0) {
                throw new LarkApiException(
                        "the token endpoint answered no tenant_access_token",
                        LarkApiException.Reach.ANSWERED,
                        200,
                        0,
                        null);
            }
            Duration life = Duration.ofSeconds(expire);
            Duration margin = life.compareTo(REFRESH_MARGIN.multipliedBy(2)) > 0 ? REFRESH_MARGIN : life.dividedBy(2);
            renewAt = clock.instant().plus(life).minus(margin);
            token = t;
            return t;
        } finally {
            tokenLock.unlock();
        }
    }

    private URI uri(String path) {
        return URI.create(account.apiBase() + "/open-apis/" + path);
    }

    private JsonNode exchange(String what, HttpRequest request, CancelToken cancel) throws LarkApiException {
        cancel.throwIfCancelled();
        String name = what.replaceAll("\\?.*", "");
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        HttpResponse<String> r;
        try {
            r = call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw failure(name, io);
            throw new LarkApiException(
                    name + " failed: " + e.getCause(), LarkApiException.Reach.UNKNOWN, 0, 0, e.getCause());
        } catch (CancellationException e) {
            throw new LarkApiException(
                    name + " aborted in flight: the run was cancelled; Lark may have it",
                    LarkApiException.Reach.UNKNOWN,
                    0,
                    0,
                    null);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new LarkApiException(name + " interrupted", LarkApiException.Reach.UNKNOWN, 0, 0, e);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
        JsonNode body = parse(r.body());
        if (r.statusCode() / 100 == 2 && body != null && body.path("code").asInt(-1) == 0) return body;
        throw error(name, r.statusCode(), r.body());
    }

    private static JsonNode parse(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException notJson) {
            return null;
        }
    }

    private static LarkApiException error(String what, int status, String raw) {
        JsonNode body = parse(raw);
        int code = body == null ? 0 : body.path("code").asInt(0);
        String msg = body == null ? "HTTP " + status : body.path("msg").asText("HTTP " + status);
        return new LarkApiException(
                what + " failed: code " + code + " " + msg, LarkApiException.Reach.ANSWERED, status, code, null);
    }

    private LarkApiException failure(String what, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof ConnectException;
        return new LarkApiException(
                what + (notSent ? " could not reach " : " got no answer from ")
                        + account.apiBase().getHost() + ": " + e.getClass().getSimpleName(),
                notSent ? LarkApiException.Reach.NOT_SENT : LarkApiException.Reach.UNKNOWN,
                0,
                0,
                null);
    }
}
