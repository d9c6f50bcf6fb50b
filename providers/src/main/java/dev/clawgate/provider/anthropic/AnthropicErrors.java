package dev.clawgate.provider.anthropic;

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

/**
 * Turns the Messages API's errors ({@code {"type":"error","error":{"type","message"}}}, as an HTTP answer or as an
 * {@code error} event inside a stream) into {@link ProviderException}s of the right kind. Overflow wording is core's
 * one detector's (SPEC HI-5).
 */
final class AnthropicErrors extends ProviderErrors {
    AnthropicErrors(String provider, SecretRedactor redactor, Clock clock) {
        super(provider, redactor, clock);
    }

    /** The error's {@code type} (e.g. {@code overloaded_error}) and message, either possibly empty. */
    record ApiError(String type, String message) {}

    @Override
    public ProviderException fromHttp(int status, HttpHeaders headers, String body) {
        ApiError err = parse(body);
        Kind kind = kind(status, err);
        Duration retryAfter =
                kind == Kind.RATE_LIMITED || kind == Kind.TRANSIENT ? RetryAfter.fromHeaders(headers, clock) : null;
        return new ProviderException(kind, provider + ": HTTP " + status + describe(err), status, retryAfter, null);
    }

    /** An {@code error} event after the 200 status line, e.g. {@code overloaded_error} mid-stream. */
    @Override
    public ProviderException fromStreamError(JsonNode event) {
        ApiError err = fromNode(event);
        return new ProviderException(kind(0, err), provider + ": error in stream" + describe(err), 0, null, null);
    }

    // the error type decides where there is one; the status where there is not (a proxy's page)
    static Kind kind(int status, ApiError err) {
        switch (err.type()) {
            case "authentication_error", "permission_error" -> {
                return Kind.AUTH;
            }
            case "rate_limit_error" -> {
                return Kind.RATE_LIMITED;
            }
            case "overloaded_error", "api_error", "timeout_error" -> {
                return Kind.TRANSIENT;
            }
            default -> {}
        }
        if (OverflowDetector.isContextOverflow(err.message())) return Kind.CONTEXT_OVERFLOW;
        if (status == 401 || status == 403) return Kind.AUTH;
        if (status == 429) return Kind.RATE_LIMITED;
        if (status == 408 || status == 529 || status >= 500) return Kind.TRANSIENT;
        return status == 0 && err.type().isEmpty() ? Kind.TRANSIENT : Kind.FATAL;
    }

    private String describe(ApiError err) {
        String message = redactor.redact(err.message());
        if (err.type().isEmpty()) return message.isEmpty() ? "" : ": " + message;
        return ": " + err.type() + (message.isEmpty() ? "" : ": " + message);
    }

    static ApiError parse(String body) {
        return errorIn(body, AnthropicErrors::fromNode, message -> new ApiError("", message));
    }

    private static ApiError fromNode(JsonNode root) {
        JsonNode err = root.path("error").isObject() ? root.path("error") : root;
        String type = err.path("type").isTextual() ? err.path("type").asText() : "";
        if (type.equals("error")) type = "";
        String message = err.path("message").isTextual() ? err.path("message").asText() : "";
        return new ApiError(type, message);
    }
}
