package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.io.ByteArrayOutputStream;
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
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The Graph API over {@code java.net.http} (SPEC CH-12): JSON posts to {@code <api_base>/<path>}, the media upload as
 * {@code multipart/form-data}, media look-ups and downloads, each with the token in the {@code Authorization} header. A
 * call is never repeated here (the JDK client does not retry a POST); a call whose answer is lost is
 * {@link GraphApiException.Reach#UNKNOWN}.
 */
final class GraphApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final URI apiBase;
    private final String token;
    private final HttpClient http;
    private final Duration callTimeout;

    GraphApi(URI apiBase, String token, HttpClient http, Duration callTimeout) {
        this.apiBase = apiBase;
        this.token = token;
        this.http = http;
        this.callTimeout = callTimeout;
    }

    static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** {@code POST <api_base>/<path>} with a JSON body. */
    JsonNode post(String path, ObjectNode body, CancelToken cancel) throws GraphApiException {
        HttpRequest r = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
                .build();
        return json(path, exchange(path, r, cancel));
    }

    /** {@code GET <api_base>/<path>}, e.g. a media id's URL or the phone number's fields. */
    JsonNode get(String pathAndQuery, CancelToken cancel) throws GraphApiException {
        return json(
                pathAndQuery, exchange(pathAndQuery, request(pathAndQuery).GET().build(), cancel));
    }

    /** {@code POST /{phone_number_id}/media}: {@code messaging_product}, {@code type} and the {@code file}; its id. */
    String upload(String phoneNumberId, String fileName, String mimeType, byte[] bytes, CancelToken cancel)
            throws GraphApiException {
        String boundary = "clawgate-" + UUID.randomUUID();
        ByteArrayOutputStream b = new ByteArrayOutputStream(bytes.length + 512);
        field(b, boundary, "messaging_product", "whatsapp");
        field(b, boundary, "type", mimeType);
        String safe = fileName.replaceAll("[\"\\r\\n\\\\]", "_");
        b.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + safe
                        + "\"\r\nContent-Type: " + mimeType + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        b.writeBytes(bytes);
        b.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        String path = phoneNumberId + "/media";
        HttpRequest r = request(path)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(b.toByteArray()))
                .build();
        String id = json(path, exchange(path, r, cancel)).path("id").asText("");
        if (id.isEmpty())
            throw new GraphApiException(
                    "media upload answered no id", GraphApiException.Reach.ANSWERED, 200, 0, null, null);
        return id;
    }

    /**
     * Streams the file at a media URL the Graph API gave (it wants the token too) into {@code into}, refusing more than
     * {@code maxBytes}: a large document never sits in memory whole.
     */
    void download(String url, java.io.OutputStream into, long maxBytes) throws GraphApiException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(url))
                .timeout(callTimeout)
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        HttpResponse<java.io.InputStream> resp;
        try {
            resp = http.send(r, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw failure("media download", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GraphApiException("media download interrupted", GraphApiException.Reach.UNKNOWN, 0, 0, null, e);
        }
        try (java.io.InputStream in = resp.body()) {
            if (resp.statusCode() / 100 != 2) {
                throw new GraphApiException(
                        "media download answered HTTP " + resp.statusCode(),
                        GraphApiException.Reach.ANSWERED,
                        resp.statusCode(),
                        0,
                        null,
                        null);
            }
            byte[] buf = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                total += n;
                if (total > maxBytes) {
                    throw new GraphApiException(
                            "media larger than " + maxBytes + " bytes",
                            GraphApiException.Reach.ANSWERED,
                            resp.statusCode(),
                            0,
                            null,
                            null);
                }
                into.write(buf, 0, n);
            }
        } catch (IOException e) {
            throw failure("media download", e);
        }
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** {@code s} with the token replaced, wherever it appears. */
    String redact(String s) {
        return s == null || token == null ? s : s.replace(token, "<token>");
    }

    URI apiBase() {
        return apiBase;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(apiBase + "/" + path))
                .timeout(callTimeout)
                .header("Authorization", "Bearer " + token);
    }

    private static void field(ByteArrayOutputStream b, String boundary, String name, String value) {
        b.writeBytes(
                ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode json(String what, HttpResponse<String> r) throws GraphApiException {
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException notJson) {
            body = null;
        }
        if (r.statusCode() / 100 == 2 && body != null && body.isObject() && !body.has("error")) return body;
        JsonNode e = body == null ? JSON.missingNode() : body.path("error");
        int code = e.path("code").asInt(0);
        Integer sub = e.has("error_subcode") ? e.path("error_subcode").asInt() : null;
        String details = e.path("error_data").path("details").asText("");
        String message = e.path("message").asText("HTTP " + r.statusCode());
        throw new GraphApiException(
                redact(what.replaceAll("\\?.*", "") + " failed: " + message
                        + (details.isEmpty() ? "" : " (" + details + ")")),
                GraphApiException.Reach.ANSWERED,
                r.statusCode(),
                code,
                sub,
                null);
    }

    private HttpResponse<String> exchange(String what, HttpRequest request, CancelToken cancel)
            throws GraphApiException {
        cancel.throwIfCancelled();
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) throw aborted(what, cancel);
            if (e.getCause() instanceof IOException io) throw failure(what, io);
            throw new GraphApiException(
                    what + " failed: " + String.valueOf(e.getCause()),
                    GraphApiException.Reach.UNKNOWN,
                    0,
                    0,
                    null,
                    e.getCause());
        } catch (CancellationException e) {
            throw aborted(what, cancel);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new GraphApiException(what + " interrupted", GraphApiException.Reach.UNKNOWN, 0, 0, null, e);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
    }

    private static GraphApiException aborted(String what, CancelToken cancel) {
        return new GraphApiException(
                what + " aborted in flight: the run was cancelled (" + cancel.reason() + "); WhatsApp may have it",
                GraphApiException.Reach.UNKNOWN,
                0,
                0,
                null,
                null);
    }

    private GraphApiException failure(String what, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException
                || e.getCause() instanceof ConnectException;
        String detail = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new GraphApiException(
                what.replaceAll("\\?.*", "")
                        + (notSent ? " could not reach " : " got no answer from ")
                        + apiBase.getHost() + ": " + detail,
                notSent ? GraphApiException.Reach.NOT_SENT : GraphApiException.Reach.UNKNOWN,
                0,
                0,
                null,
                null);
    }
}
