package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The Matrix client-server API over {@code java.net.http}: JSON requests with the access token in the
 * {@code Authorization: Bearer} header, the standard error body ({@code errcode}, {@code error},
 * {@code retry_after_ms}) read into {@link MatrixApiException}. No request is repeated by the client; a call whose
 * answer is lost is {@link MatrixApiException.Reach#UNKNOWN}.
 */
final class MatrixApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Media downloads are bounded (SPEC OP-7). */
    static final int MAX_MEDIA_BYTES = 20 << 20;

    /** Downloaded media: its bytes and content type. */
    record Media(byte[] bytes, String contentType) {}

    private final URI base;
    private final String token;
    private final HttpClient http;
    private final Duration callTimeout;

    MatrixApi(URI base, String token, HttpClient http, Duration callTimeout) {
        this.base = base;
        this.token = token;
        this.http = http;
        this.callTimeout = callTimeout;
    }

    static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /** One path segment, percent-encoded (room ids hold {@code !} and {@code :}, event ids {@code $}). */
    static String seg(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String query(Map<String, String> q) {
        StringBuilder b = new StringBuilder();
        q.forEach((k, v) -> {
            if (v == null) return;
            b.append(b.isEmpty() ? "?" : "&").append(seg(k)).append('=').append(seg(v));
        });
        return b.toString();
    }

    JsonNode get(String path) throws MatrixApiException {
        return get(path, callTimeout, CancelToken.none());
    }

    JsonNode get(String path, Duration timeout, CancelToken cancel) throws MatrixApiException {
        return json("GET " + shown(path), request(path, timeout).GET(), cancel);
    }

    JsonNode put(String path, JsonNode body, CancelToken cancel) throws MatrixApiException {
        return json(
                "PUT " + shown(path),
                request(path, callTimeout)
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)),
                cancel);
    }

    JsonNode post(String path, JsonNode body, CancelToken cancel) throws MatrixApiException {
        return json(
                "POST " + shown(path),
                request(path, callTimeout)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)),
                cancel);
    }

    /** {@code POST /_matrix/media/v3/upload}: the new {@code mxc://} URI. */
    String upload(byte[] bytes, String contentType, String fileName, CancelToken cancel) throws MatrixApiException {
        String path = "/_matrix/media/v3/upload" + query(Map.of("filename", fileName));
        JsonNode r = json(
                "POST upload",
                request(path, callTimeout)
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)),
                cancel);
        String uri = r.path("content_uri").asText(null);
        if (uri == null)
            throw new MatrixApiException(
                    "upload answered no content_uri", MatrixApiException.Reach.ANSWERED, 200, null, null, null);
        return uri;
    }

    /**
     * An {@code mxc://server/id} through the authenticated media endpoint ({@code /_matrix/client/v1/media/download}).
     */
    Media download(String mxc) throws MatrixApiException {
        if (mxc == null || !mxc.matches("mxc://[^/]+/[A-Za-z0-9_-]+")) {
            throw new MatrixApiException("not an mxc URI", MatrixApiException.Reach.NOT_SENT, 0, null, null, null);
        }
        String[] parts = mxc.substring("mxc://".length()).split("/", 2);
        String path = "/_matrix/client/v1/media/download/" + seg(parts[0]) + "/" + seg(parts[1]);
        HttpResponse<java.io.InputStream> r = exchange(
                "GET download",
                request(path, callTimeout).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream(),
                CancelToken.none());
        byte[] body;
        try (java.io.InputStream in = r.body()) {
            body = in.readNBytes(MAX_MEDIA_BYTES + 1); // bounded: a larger file is never held whole (SPEC OP-7)
        } catch (IOException e) {
            throw failure("GET download", e);
        }
        if (r.statusCode() / 100 != 2) {
            throw error("GET download", r.statusCode(), new String(body, StandardCharsets.UTF_8), r.headers());
        }
        if (body.length > MAX_MEDIA_BYTES) {
            throw new MatrixApiException(
                    "media larger than " + MAX_MEDIA_BYTES + " bytes",
                    MatrixApiException.Reach.ANSWERED,
                    413,
                    "M_TOO_LARGE",
                    null,
                    null);
        }
        return new Media(body, r.headers().firstValue("Content-Type").orElse("application/octet-stream"));
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
    }

    private JsonNode json(String what, HttpRequest.Builder request, CancelToken cancel) throws MatrixApiException {
        cancel.throwIfCancelled();
        HttpResponse<String> r =
                exchange(what, request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8), cancel);
        if (r.statusCode() / 100 != 2) throw error(what, r.statusCode(), r.body(), r.headers());
        try {
            return JSON.readTree(r.body().isEmpty() ? "{}" : r.body());
        } catch (IOException e) {
            throw new MatrixApiException(
                    what + " answered something that is not JSON",
                    MatrixApiException.Reach.ANSWERED,
                    r.statusCode(),
                    null,
                    null,
                    null);
        }
    }

    /** The standard error response; a 429's wait from {@code retry_after_ms}, else the {@code Retry-After} header. */
    private static MatrixApiException error(String what, int status, String body, java.net.http.HttpHeaders headers) {
        JsonNode n;
        try {
            n = JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
        } catch (IOException notJson) {
            n = JSON.createObjectNode();
        }
        String errcode = n.path("errcode").asText(null);
        Duration wait = null;
        if (n.path("retry_after_ms").canConvertToLong())
            wait = Duration.ofMillis(Math.max(0, n.path("retry_after_ms").asLong()));
        else if (status == 429)
            wait = headers.firstValue("Retry-After").map(MatrixApi::seconds).orElse(null);
        String error = n.path("error").asText("");
        String message = what + " failed: HTTP " + status + (errcode == null ? "" : " " + errcode)
                + (error.isEmpty() ? "" : " (" + (error.length() > 200 ? error.substring(0, 200) : error) + ")");
        return new MatrixApiException(message, MatrixApiException.Reach.ANSWERED, status, errcode, wait, null);
    }

    private static Duration seconds(String v) {
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(v.strip())));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private <T> HttpResponse<T> exchange(
            String what, HttpRequest request, HttpResponse.BodyHandler<T> handler, CancelToken cancel)
            throws MatrixApiException {
        CompletableFuture<HttpResponse<T>> call = http.sendAsync(request, handler);
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) throw aborted(what, cancel);
            if (e.getCause() instanceof IOException io) throw failure(what, io);
            throw new MatrixApiException(
                    what + " failed: "
                            + (e.getCause() == null ? e : e.getCause())
                                    .getClass()
                                    .getSimpleName(),
                    MatrixApiException.Reach.UNKNOWN,
                    0,
                    null,
                    null,
                    e.getCause());
        } catch (CancellationException e) {
            throw aborted(what, cancel);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new MatrixApiException(what + " interrupted", MatrixApiException.Reach.UNKNOWN, 0, null, null, null);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
    }

    private static MatrixApiException aborted(String what, CancelToken cancel) {
        return new MatrixApiException(
                what + " aborted in flight: the run was cancelled (" + cancel.reason() + "); the server may have it",
                MatrixApiException.Reach.UNKNOWN,
                0,
                null,
                null,
                null);
    }

    private MatrixApiException failure(String what, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException
                || e.getCause() instanceof ConnectException;
        String why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new MatrixApiException(
                what + (notSent ? " could not reach " : " got no answer from ") + base.getHost() + ": " + why,
                notSent ? MatrixApiException.Reach.NOT_SENT : MatrixApiException.Reach.UNKNOWN,
                0,
                null,
                null,
                e);
    }

    /** A path as logs may show it: without its query (a filter or since token is noise). */
    private static String shown(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    String redact(String s) {
        return s == null || token == null ? s : s.replace(token, "<token>");
    }
}
