package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Slack's Web API over {@code java.net.http}: {@code POST <api_base>/<method>} with a JSON body and the token in the
 * {@code Authorization} header, answered {@code {"ok": true, ...}} or {@code {"ok": false, "error": "..."}}, or HTTP
 * 429 with {@code Retry-After}. Hand written: the handful of methods used are one request shape, and Slack's Java SDK
 * retries failed requests itself (the anchor's users saw every reply twice, issue 17); here no request is ever repeated
 * by the client: the JDK client does not retry a POST ({@code jdk.httpclient.enableAllMethodRetry} is off), and a call
 * whose answer is lost is reported {@link SlackApiException.Reach#UNKNOWN}.
 *
 * <p>SPEC OUT-7: a 429 is remembered per method (Slack's tiers are per method; {@code chat.postMessage} per channel):
 * until its {@code Retry-After} has passed, a call of that method is refused here, without reaching Slack, as rate
 * limited for the time left.
 */
final class SlackApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final URI apiBase;
    private final String token;
    private final HttpClient http;
    private final Duration callTimeout;
    private final Clock clock;
    private final Map<String, Instant> limitedUntil = new ConcurrentHashMap<>();

    SlackApi(URI apiBase, String token, HttpClient http, Duration callTimeout, Clock clock) {
        this.apiBase = apiBase;
        this.token = token;
        this.http = http;
        this.callTimeout = callTimeout;
        this.clock = clock;
    }

    static HttpClient client() {
        return HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    JsonNode call(String method, ObjectNode params) throws SlackApiException {
        return call(method, params, CancelToken.none());
    }

    /**
     * One call of {@code method}, never repeated (SPEC OUT-7). {@code cancel} aborts it (SPEC OUT-11): before it
     * leaves, with {@link dev.clawgate.core.run.CancelledException} and nothing sent; in flight, the exchange is
     * abandoned and the outcome is unknown.
     *
     * @param limitKey what Slack's rate limit counts the call under: the method, or {@code method:channel} for posts
     */
    JsonNode call(String method, String limitKey, ObjectNode params, CancelToken cancel) throws SlackApiException {
        cancel.throwIfCancelled();
        return answer(method, limitKey, "application/json; charset=utf-8", params.toString(), cancel);
    }

    /**
     * As {@link #call(String, ObjectNode, CancelToken)}, the arguments sent as
     * {@code application/x-www-form-urlencoded}, the one content type every Web API method takes (the file upload
     * methods were long documented with it alone); a JSON argument ({@code files}) goes as a JSON string.
     */
    JsonNode callForm(String method, Map<String, String> params, CancelToken cancel) throws SlackApiException {
        cancel.throwIfCancelled();
        StringBuilder form = new StringBuilder();
        params.forEach((k, v) -> form.append(form.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return answer(method, method, "application/x-www-form-urlencoded", form.toString(), cancel);
    }

    private JsonNode answer(String method, String limitKey, String contentType, String payload, CancelToken cancel)
            throws SlackApiException {
        Instant until = limitedUntil.get(limitKey);
        Instant now = clock.instant();
        if (until != null && now.isBefore(until)) {
            throw new SlackApiException(
                    method + " not sent: Slack rate-limited it until " + until,
                    SlackApiException.Reach.ANSWERED,
                    "ratelimited",
                    429,
                    Duration.between(now, until),
                    null);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(apiBase + "/" + method))
                .timeout(callTimeout)
                .header("Content-Type", contentType)
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> r = exchange(method, request, cancel);
        if (r.statusCode() == 429) {
            Duration wait = retryAfter(r);
            limitedUntil.put(limitKey, clock.instant().plus(wait));
            throw new SlackApiException(
                    method + " rate-limited by Slack: retry after " + wait.toSeconds() + " s",
                    SlackApiException.Reach.ANSWERED,
                    "ratelimited",
                    429,
                    wait,
                    null);
        }
        JsonNode body;
        try {
            body = JSON.readTree(r.body());
        } catch (IOException notJson) {
            body = null;
        }
        if (body != null && body.path("ok").asBoolean(false)) return body;
        String error = body == null ? null : body.path("error").asText(null);
        throw new SlackApiException(
                method + " failed: " + (error != null ? error : "HTTP " + r.statusCode()),
                SlackApiException.Reach.ANSWERED,
                error,
                r.statusCode(),
                null,
                null);
    }

    JsonNode call(String method, ObjectNode params, CancelToken cancel) throws SlackApiException {
        return call(method, method, params, cancel);
    }

    /**
     * Step 2 of Slack's external upload: the file's bytes POSTed raw to the {@code upload_url} that
     * {@code files.getUploadURLExternal} gave (pre-signed: no token goes with them). Nothing is shown to anyone until
     * {@code files.completeUploadExternal}. The run's abort reaches the upload in flight (SPEC OUT-11).
     */
    void upload(URI uploadUrl, Path file, CancelToken cancel) throws SlackApiException {
        cancel.throwIfCancelled();
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(uploadUrl)
                    .timeout(callTimeout)
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofFile(file))
                    .build();
        } catch (java.io.FileNotFoundException e) {
            throw new SlackApiException(
                    "cannot read " + file.getFileName(),
                    SlackApiException.Reach.NOT_SENT,
                    "file_not_readable",
                    0,
                    null,
                    e);
        }
        HttpResponse<String> r = exchange("upload_url", request, cancel);
        if (r.statusCode() != 200) {
            throw new SlackApiException(
                    "the upload URL answered HTTP " + r.statusCode(),
                    SlackApiException.Reach.ANSWERED,
                    null,
                    r.statusCode(),
                    null,
                    null);
        }
    }

    /**
     * A private file URL ({@code url_private_download}) fetched with the bot token (SPEC OUT-13), at most
     * {@code maxBytes}. Slack does not serve a private file to a request without a valid token: it redirects to a
     * sign-in page, so anything but a 200 whose body is not an HTML page (unless the file is one) is refused, and
     * redirects are never followed (the token stays on this host).
     *
     * @param mimetype what the event says the file is
     */
    byte[] download(URI url, String mimetype, long maxBytes) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(callTimeout)
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                String why = r.statusCode() / 100 == 3 ? ": Slack sent a sign-in page, the token was not taken" : "";
                throw new IOException("HTTP " + r.statusCode() + why);
            }
            String type = r.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT);
            if (type.startsWith("text/html") && !String.valueOf(mimetype).startsWith("text/html")) {
                throw new IOException("Slack answered a web page, not the file (has the app the files:read scope?)");
            }
            long declared = r.headers().firstValueAsLong("Content-Length").orElse(-1);
            if (declared > maxBytes) {
                throw new IOException("the file is " + declared + " bytes, over the limit of " + maxBytes);
            }
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxBytes + 1));
            if (bytes.length > maxBytes) throw new IOException("the file is over the limit of " + maxBytes + " bytes");
            return bytes;
        }
    }

    private static Duration retryAfter(HttpResponse<String> r) {
        String v = r.headers().firstValue("Retry-After").orElse("1").strip();
        try {
            return Duration.ofSeconds(Math.max(1, Long.parseLong(v)));
        } catch (NumberFormatException e) {
            return Duration.ofSeconds(1);
        }
    }

    /** {@code s} with the token replaced, wherever it appears. */
    String redact(String s) {
        return s == null || token == null ? s : s.replace(token, "<token>");
    }

    private HttpResponse<String> exchange(String method, HttpRequest request, CancelToken cancel)
            throws SlackApiException {
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) throw aborted(method, cancel);
            if (e.getCause() instanceof IOException io) throw failure(method, io);
            throw new SlackApiException(
                    method + " failed: "
                            + (e.getCause() == null ? e : e.getCause())
                                    .getClass()
                                    .getSimpleName(),
                    SlackApiException.Reach.UNKNOWN,
                    null,
                    0,
                    null,
                    e.getCause());
        } catch (CancellationException e) {
            throw aborted(method, cancel);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new SlackApiException(method + " interrupted", SlackApiException.Reach.UNKNOWN, null, 0, null, null);
        } finally {
            try {
                abortOnCancel.close();
            } catch (Exception e) {
                // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
                throw new IllegalStateException("could not release the cancel listener", e);
            }
        }
    }

    private static SlackApiException aborted(String method, CancelToken cancel) {
        return new SlackApiException(
                method + " aborted in flight: the run was cancelled (" + cancel.reason() + "); Slack may have it",
                SlackApiException.Reach.UNKNOWN,
                null,
                0,
                null,
                null);
    }

    private SlackApiException failure(String method, IOException e) {
        boolean notSent = e instanceof HttpConnectTimeoutException
                || e instanceof ConnectException
                || e.getCause() instanceof UnresolvedAddressException
                || e.getCause() instanceof ConnectException;
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + redact(e.getMessage()));
        return new SlackApiException(
                method + (notSent ? " could not reach " : " got no answer from ") + apiBase.getHost() + ": " + what,
                notSent ? SlackApiException.Reach.NOT_SENT : SlackApiException.Reach.UNKNOWN,
                null,
                0,
                null,
                null);
    }
}
