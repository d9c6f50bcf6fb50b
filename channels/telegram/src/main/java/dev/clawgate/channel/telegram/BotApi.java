package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.HttpClients;
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
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The Bot API over {@code java.net.http}: {@code POST <api_base>/bot<token>/<method>} with a JSON body (or multipart
 * for uploads), answered {@code {"ok":true,"result":...}} or an error. Hand written: the dozen methods we use are one
 * request shape, and a client library would bring its own threads, retries and logging that must not log the token.
 * Nothing here logs the token; every error message is passed through {@link #redact}.
 */
final class BotApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** What a {@code file_path} from {@code getFile} looks like: {@code photos/file_12.jpg}. */
    private static final java.util.regex.Pattern FILE_PATH = java.util.regex.Pattern.compile("[A-Za-z0-9._/-]{1,512}");

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
        return HttpClients.builder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    JsonNode call(String method, ObjectNode params) throws BotApiException {
        return call(method, params, callTimeout);
    }

    JsonNode call(String method, ObjectNode params, Duration timeout) throws BotApiException {
        return call(method, params, timeout, CancelToken.none());
    }

    /**
     * A call that {@code cancel} aborts, in flight included (SPEC OUT-11): cancelled before it starts, it throws
     * {@link dev.clawgate.core.run.CancelledException} and nothing is sent; cancelled while the request is out, the
     * exchange is abandoned and the outcome is unknown (Telegram may have it).
     */
    JsonNode call(String method, ObjectNode params, CancelToken cancel) throws BotApiException {
        return call(method, params, callTimeout, cancel);
    }

    private JsonNode call(String method, ObjectNode params, Duration timeout, CancelToken cancel)
            throws BotApiException {
        HttpRequest request = HttpRequest.newBuilder(uri("/bot" + token + "/" + method))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(params.toString(), StandardCharsets.UTF_8))
                .build();
        return result(method, exchange(method, request, cancel));
    }

    /**
     * A multipart call with one file part ({@code sendPhoto}, {@code sendDocument}); {@code cancel} aborts it as
     * {@link #call}.
     */
    JsonNode upload(
            String method,
            Map<String, String> fields,
            String fileField,
            String fileName,
            byte[] bytes,
            CancelToken cancel)
            throws BotApiException {
        String boundary = "clawgate-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (var f : fields.entrySet()) {
            write(
                    body,
                    "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + f.getKey() + "\"\r\n\r\n"
                            + f.getValue() + "\r\n");
        }
        write(
                body,
                "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField + "\"; filename=\""
                        + headerSafe(fileName) + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        body.writeBytes(bytes);
        write(body, "\r\n--" + boundary + "--\r\n");
        HttpRequest request = HttpRequest.newBuilder(uri("/bot" + token + "/" + method))
                .timeout(callTimeout.multipliedBy(2))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build();
        return result(method, exchange(method, request, cancel));
    }

    /**
     * A file name as it may stand in a multipart part's header (SPEC OP-6: no header injection): a name the agent chose
     * (a workspace file may be called anything, line breaks included) loses its control characters, quotes and
     * backslashes, which would end the header or the quoted string.
     */
    static String headerSafe(String fileName) {
        String safe = fileName.replaceAll("[\\p{Cntrl}\"\\\\]", "_").strip();
        return safe.isEmpty() ? "file" : safe;
    }

    /** Downloads a file {@code getFile} named: {@code GET <api_base>/file/bot<token>/<file_path>}. */
    byte[] download(String filePath) throws BotApiException {
        // the path comes from Telegram's answer: one that would change the URL (or is none) is refused, not followed
        if (!FILE_PATH.matcher(filePath).matches() || filePath.contains("..")) {
            throw new BotApiException(
                    "getFile gave a file path that is not a plain relative path; not downloaded",
                    BotApiException.Reach.NOT_SENT,
                    400,
                    null,
                    null);
        }
        HttpRequest request = HttpRequest.newBuilder(uri("/file/bot" + token + "/" + filePath))
                .timeout(callTimeout.multipliedBy(2))
                .GET()
                .build();
        HttpResponse<byte[]> r;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw failure("download", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BotApiException(
                    "interrupted while downloading a file", BotApiException.Reach.UNKNOWN, 0, null, null);
        }
        if (r.statusCode() != 200)
            throw new BotApiException(
                    "file download answered HTTP " + r.statusCode(),
                    BotApiException.Reach.ANSWERED,
                    r.statusCode(),
                    null,
                    null);
        return r.body();
    }

    /** {@code s} with the token replaced, wherever it appears (URLs in exception messages). */
    String redact(String s) {
        return s == null ? null : s.replace(token, "<token>");
    }

    private HttpResponse<String> exchange(String method, HttpRequest request, CancelToken cancel)
            throws BotApiException {
        cancel.throwIfCancelled();
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) throw aborted(method, cancel);
            if (e.getCause() instanceof IOException io) throw failure(method, io);
            throw new BotApiException(
                    method + " failed: "
                            + (e.getCause() == null ? e : e.getCause())
                                    .getClass()
                                    .getSimpleName(),
                    BotApiException.Reach.UNKNOWN,
                    0,
                    null,
                    e.getCause());
        } catch (CancellationException e) {
            throw aborted(method, cancel);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new BotApiException(method + " interrupted", BotApiException.Reach.UNKNOWN, 0, null, null);
        } finally {
            release(abortOnCancel);
        }
    }

    /** The run was cancelled while the request was out: it may have reached Telegram (SPEC OUT-11, OUT-7). */
    private static BotApiException aborted(String method, CancelToken cancel) {
        return new BotApiException(
                method + " aborted in flight: the run was cancelled (" + cancel.reason() + "); Telegram may have it",
                BotApiException.Reach.UNKNOWN,
                0,
                null,
                null);
    }

    private static void release(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
            throw new IllegalStateException("could not release the cancel listener", e);
        }
    }

    private BotApiException failure(String method, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException
                || e.getCause() instanceof ConnectException;
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new BotApiException(
                method + (notSent ? " could not reach " : " got no answer from ") + apiBase.getHost() + ": " + what,
                notSent ? BotApiException.Reach.NOT_SENT : BotApiException.Reach.UNKNOWN,
                0,
                null,
                null);
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
        String description = body == null
                ? "HTTP " + r.statusCode()
                : body.path("description").asText("HTTP " + r.statusCode());
        JsonNode retry = body == null ? null : body.path("parameters").get("retry_after");
        return thrown(new BotApiException(
                method + " failed: " + code + " " + redact(description),
                BotApiException.Reach.ANSWERED,
                code,
                retry == null || !retry.canConvertToInt() ? null : retry.asInt(),
                null));
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
