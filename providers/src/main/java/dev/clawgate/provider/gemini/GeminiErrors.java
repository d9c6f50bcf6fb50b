package dev.clawgate.provider.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.history.OverflowDetector;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import dev.clawgate.provider.internal.ProviderErrors;
import dev.clawgate.provider.internal.RetryAfter;
import dev.clawgate.provider.internal.SecretRedactor;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Google's error bodies ({@code {"error":{"code","message","status","details":[...]}}}) into
 * {@link ProviderException}s: the canonical {@code status} decides, the HTTP status where there is none;
 * {@code RESOURCE_EXHAUSTED} carries the {@code RetryInfo} delay (else the message's "retry in", else
 * {@code retry-after}); overflow wording is core's one detector's (SPEC HI-5).
 */
final class GeminiErrors extends ProviderErrors {
    private static final String RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";
    private static final String ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
    // google.protobuf.Duration in JSON: "37s", "1.500s"
    private static final Pattern PROTO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)s");
    private static final Pattern RETRY_IN = Pattern.compile("(?i)retry in (\\d+(?:\\.\\d+)?)\\s*(ms|s)\\b");

    GeminiErrors(String provider, SecretRedactor redactor, Clock clock) {
        super(provider, redactor, clock);
    }

    /** @param retryDelay from RetryInfo (or the message); null when the error gave none */
    record ApiError(int code, String status, String message, String reason, Duration retryDelay) {}

    @Override
    public ProviderException fromHttp(int status, HttpHeaders headers, String body) {
        ApiError err = parse(body);
        Kind kind = kind(status, err);
        Duration retryAfter = null;
        if (kind == Kind.RATE_LIMITED || kind == Kind.TRANSIENT) {
            retryAfter = err.retryDelay() != null ? err.retryDelay() : RetryAfter.fromHeaders(headers, clock);
        }
        return new ProviderException(kind, provider + ": HTTP " + status + describe(err), status, retryAfter, null);
    }

    /** An {@code error} object sent with a 200, e.g. as a chunk of a stream. */
    @Override
    public ProviderException fromStreamError(JsonNode root) {
        ApiError err = fromNode(root);
        Kind kind = kind(err.code(), err);
        return new ProviderException(
                kind,
                provider + ": error in stream" + describe(err),
                err.code(),
                kind == Kind.RATE_LIMITED ? err.retryDelay() : null,
                null);
    }

    static Kind kind(int httpStatus, ApiError err) {
        if (OverflowDetector.isContextOverflow(err.message())) return Kind.CONTEXT_OVERFLOW;
        if ("API_KEY_INVALID".equals(err.reason()) || err.message().contains("API key not valid")) return Kind.AUTH;
        switch (err.status()) {
            case "UNAUTHENTICATED", "PERMISSION_DENIED" -> {
                return Kind.AUTH;
            }
            case "RESOURCE_EXHAUSTED" -> {
                return Kind.RATE_LIMITED;
            }
            case "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED", "UNKNOWN" -> {
                return Kind.TRANSIENT;
            }
            case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND", "OUT_OF_RANGE", "UNIMPLEMENTED" -> {
                return Kind.FATAL;
            }
            default -> {}
        }
        if (httpStatus == 401 || httpStatus == 403) return Kind.AUTH;
        if (httpStatus == 429) return Kind.RATE_LIMITED;
        if (httpStatus == 408 || httpStatus >= 500) return Kind.TRANSIENT;
        return httpStatus == 0 ? Kind.TRANSIENT : Kind.FATAL;
    }

    private String describe(ApiError err) {
        String message = redactor.redact(err.message());
        if (err.status().isEmpty()) return message.isEmpty() ? "" : ": " + message;
        return ": " + err.status() + (message.isEmpty() ? "" : ": " + message);
    }

    static ApiError parse(String body) {
        return errorIn(body, GeminiErrors::fromNode, message -> new ApiError(0, "", message, "", null));
    }

    // the body is an object, or (from streamGenerateContent without alt=sse) an array holding one
    static ApiError fromNode(JsonNode root) {
        JsonNode top = root.isArray() ? root.path(0) : root;
        JsonNode err = top.path("error").isObject() ? top.path("error") : top;
        String status = err.path("status").asText("");
        String message = err.path("message").asText("");
        String reason = "";
        Duration delay = null;
        for (JsonNode d : err.path("details")) {
            String type = d.path("@type").asText("");
            if (type.equals(RETRY_INFO))
                delay = protoDuration(d.path("retryDelay").asText(""));
            if (type.equals(ERROR_INFO) && reason.isEmpty())
                reason = d.path("reason").asText("");
        }
        if (delay == null) delay = retryIn(message);
        return new ApiError(err.path("code").asInt(0), status, message, reason, delay);
    }

    static Duration protoDuration(String text) {
        Matcher m = PROTO_DURATION.matcher(text.strip());
        if (!m.matches()) return null;
        return Duration.ofMillis(Math.round(Double.parseDouble(m.group(1)) * 1000));
    }

    private static Duration retryIn(String message) {
        Matcher m = RETRY_IN.matcher(message);
        if (!m.find()) return null;
        double n = Double.parseDouble(m.group(1));
        return Duration.ofMillis(Math.round(m.group(2).equalsIgnoreCase("ms") ? n : n * 1000));
    }
}
