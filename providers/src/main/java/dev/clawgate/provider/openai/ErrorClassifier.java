package dev.clawgate.provider.openai;

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
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an OpenAI-compatible error answer into a {@link ProviderException} of the right kind (ARCHITECTURE: Provider).
 * Overflow wording is the shared detector's (SPEC HI-5), never a list of our own.
 */
final class ErrorClassifier extends ProviderErrors {
    private static final List<String> VISION_REFUSALS = List.of(
            "does not support image",
            "does not support vision",
            "image input is not supported",
            "image inputs are not supported",
            "images are not supported",
            "image_url is only supported",
            "unknown variant `image_url`",
            "unknown variant image_url",
            "vision is not supported",
            "not a multimodal model",
            "multimodal is not supported",
            "support image input",
            "does not support multimodal");
    private static final Pattern RETRY_HINT = Pattern.compile("(?i)(?:try again|retry)(?: after| in)\\s+"
            + "(?:(\\d+)\\s*m(?:in(?:utes?)?)?\\s*)?(\\d+(?:\\.\\d+)?)\\s*(ms|milliseconds?|s|secs?|seconds?)\\b");

    ErrorClassifier(String provider, SecretRedactor redactor, Clock clock) {
        super(provider, redactor, clock);
    }

    /** What the provider said, picked out of the body: the error's message, code and type. */
    record ApiError(String message, String code, String type) {
        String searchable() {
            return message + " " + (code == null ? "" : code) + " " + (type == null ? "" : type);
        }
    }

    @Override
    public ProviderException fromHttp(int status, HttpHeaders headers, String body) {
        ApiError err = parse(body);
        String text =
                provider + ": HTTP " + status + (err.message().isEmpty() ? "" : ": " + redactor.redact(err.message()));
        Duration retryAfter = retryAfter(headers, err.message());
        Kind kind = kind(status, err);
        return new ProviderException(
                kind, text, status, kind == Kind.RATE_LIMITED || kind == Kind.TRANSIENT ? retryAfter : null, null);
    }

    /** An {@code error} object sent inside a 200 stream (OpenRouter and others do this). */
    @Override
    public ProviderException fromStreamError(JsonNode error) {
        ApiError err = fromNode(error);
        int status = error.path("code").canConvertToInt() ? error.path("code").asInt() : 0;
        Kind kind = status >= 400 ? kind(status, err) : contentKind(err, Kind.TRANSIENT);
        return new ProviderException(
                kind, provider + ": error in stream: " + redactor.redact(err.message()), status, null, null);
    }

    private static Kind kind(int status, ApiError err) {
        if (status == 401 || status == 403) return Kind.AUTH;
        if (status == 429) return Kind.RATE_LIMITED;
        return contentKind(err, status == 408 || status >= 500 ? Kind.TRANSIENT : Kind.FATAL);
    }

    private static Kind contentKind(ApiError err, Kind otherwise) {
        String text = err.searchable();
        if (OverflowDetector.isContextOverflow(text)) return Kind.CONTEXT_OVERFLOW;
        String lower = text.toLowerCase(Locale.ROOT);
        for (String phrase : VISION_REFUSALS) {
            if (lower.contains(phrase)) return Kind.VISION_UNSUPPORTED;
        }
        return otherwise;
    }

    static ApiError parse(String body) {
        return errorIn(body, ErrorClassifier::fromNode, message -> new ApiError(message, null, null));
    }

    private static ApiError fromNode(JsonNode root) {
        JsonNode err = root.has("error") ? root.get("error") : root;
        if (err.isTextual()) return new ApiError(err.asText(), null, null);
        String message = text(err, "message");
        if (message == null) message = text(err, "detail");
        if (message == null) message = text(root, "message");
        if (message == null) message = "";
        return new ApiError(message, text(err, "code"), text(err, "type"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isValueNode() && !v.isNull() ? v.asText() : null;
    }

    /** From {@code retry-after-ms}, {@code retry-after} (seconds or an HTTP date), or the message's hint. */
    Duration retryAfter(HttpHeaders headers, String message) {
        Duration fromHeaders = RetryAfter.fromHeaders(headers, clock);
        if (fromHeaders != null) return fromHeaders;
        Matcher m = RETRY_HINT.matcher(message == null ? "" : message);
        if (m.find()) {
            double amount = Double.parseDouble(m.group(2));
            double millis = m.group(3).toLowerCase(Locale.ROOT).startsWith("m") ? amount : amount * 1000;
            if (m.group(1) != null) millis += Long.parseLong(m.group(1)) * 60_000d;
            return Duration.ofMillis(Math.round(millis));
        }
        return null;
    }
}
