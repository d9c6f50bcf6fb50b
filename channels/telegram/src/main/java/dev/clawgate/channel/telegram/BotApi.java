package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
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
import java.util.Map;
import java.util.UUID;

/**
 * The Bot API over {@code java.net.http}: {@code POST <api_base>/bot<token>/<method>} with a JSON
 * body (or multipart for uploads), answered {@code {"ok":true,"result":...}} or an error. Hand
 * written: the dozen methods we use are one request shape, and a client library would bring its
 * own threads, retries and logging that must not log the token. Nothing here logs the token;
 * every error message is passed through {@link #redact}.
 */
final class BotApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final URI apiBase;
    private final String token;
    private final HttpClient http;
    private final Duration callTimeout;

    BotApi(URI apiBase, String token, HttpClient http) {
        this(apiBase, token, http, CALL_TIMEOUT);
    }

    /** @param callTimeout how long a call may wait for its answer; past it the outcome is unknown */
    BotApi(URI apiBase, String token, HttpClient http, Duration callTimeout) {
        this.apiBase = apiBase;
        this.token = token;
        this.http = http;
        this.callTimeout = callTimeout;
    }

    static HttpClient client() {
        return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    JsonNode call(String method, ObjectNode params) throws BotApiException {
        return call(method, params, callTimeout);
    }

    JsonNode call(String method, ObjectNode params, Duration timeout) throws BotApiException {
        HttpRequest request = HttpRequest.newBuilder(uri("/bot" + token + "/" + method)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(params.toString(), StandardCharsets.UTF_8)).build();
        return result(method, exchange(method, request));
    }

    /** A multipart call with one file part ({@code sendPhoto}, {@code sendDocument}). */
    JsonNode upload(String method, Map<String, String> fields, String fileField, String fileName, byte[] bytes) throws BotApiException {
        String boundary = "clawgate-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (var f : fields.entrySet()) {
            write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + f.getKey() + "\"\r\n\r\n" + f.getValue() + "\r\n");
        }
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField + "\"; filename=\""
                + fileName.replace("\"", "") + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        body.writeBytes(bytes);
        write(body, "\r\n--" + boundary + "--\r\n");
        HttpRequest request = HttpRequest.newBuilder(uri("/bot" + token + "/" + method)).timeout(callTimeout.multipliedBy(2))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        return result(method, exchange(method, request));
    }

    /** Downloads a file {@code getFile} named: {@code GET <api_base>/file/bot<token>/<file_path>}. */
    byte[] download(String filePath) throws BotApiException {
        HttpRequest request = HttpRequest.newBuilder(uri("/file/bot" + token + "/" + filePath)).timeout(callTimeout.multipliedBy(2)).GET().build();
        HttpResponse<byte[]> r;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw failure("download", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BotApiException("interrupted while downloading a file", BotApiException.Reach.UNKNOWN, 0, null, null);
        }
        if (r.statusCode() != 200) throw new BotApiException("file download answered HTTP " + r.statusCode(), BotApiException.Reach.ANSWERED, r.statusCode(), null, null);
        return r.body();
    }

    /** {@code s} with the token replaced, wherever it appears (URLs in exception messages). */
    String redact(String s) {
        return s == null ? null : s.replace(token, "<token>");
    }

    private HttpResponse<String> exchange(String method, HttpRequest request) throws BotApiException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw failure(method, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BotApiException(method + " interrupted", BotApiException.Reach.UNKNOWN, 0, null, null);
        }
    }

    private BotApiException failure(String method, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException || e.getCause() instanceof ConnectException;
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new BotApiException(method + (notSent ? " could not reach " : " got no answer from ") + apiBase.getHost() + ": " + what,
                notSent ? BotApiException.Reach.NOT_SENT : BotApiException.Reach.UNKNOWN, 0, null, null);
    }

    private JsonNode result(String method, HttpResponse<String> r) throws BotApiException {
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException notJson) {
            body = null;
        }
        if (body != null && body.path("ok").asBoolean(false)) return body.path("result");
        int code = body == null ? r.statusCode() : body.path("error_code").asInt(r.statusCode());
        String description = body == null ? "HTTP " + r.statusCode() : body.path("description").asText("HTTP " + r.statusCode());
        JsonNode retry = body == null ? null : body.path("parameters").get("retry_after");
        return thrown(new BotApiException(method + " failed: " + code + " " + redact(description), BotApiException.Reach.ANSWERED, code,
                retry == null || !retry.canConvertToInt() ? null : retry.asInt(), null));
    }

    private static JsonNode thrown(BotApiException e) throws BotApiException {
        throw e;
    }

    private URI uri(String path) {
        return URI.create(apiBase + path);
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
}
