package dev.clawgate.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.history.OverflowDetector;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an OpenAI-compatible error answer into a {@link ProviderException} of the right kind
 * (ARCHITECTURE: Provider). Overflow wording is the shared detector's (SPEC HI-5), never a list
 * of our own.
 */
final class ErrorClassifier {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> VISION_REFUSALS = List.of(
            "does not support image", "does not support vision", "image input is not supported",
            "image inputs are not supported", "images are not supported", "image_url is only supported",
            "unknown variant `image_url`", "unknown variant image_url", "vision is not supported",
            "not a multimodal model", "multimodal is not supported", "support image input",
            "does not support multimodal");
    private static final Pattern RETRY_HINT = Pattern.compile("(?i)(?:try again|retry)(?: after| in)\\s+"
            + "(?:(\\d+)\\s*m(?:in(?:utes?)?)?\\s*)?(\\d+(?:\\.\\d+)?)\\s*(ms|milliseconds?|s|secs?|seconds?)\\b");

    private final String provider;
    private final SecretRedactor redactor;
    private final Clock clock;

    ErrorClassifier(String provider, SecretRedactor redactor, Clock clock) {
        this.provider = provider;
        this.redactor = redactor;
        this.clock = clock;
    }

    /** What the provider said, picked out of the body: the error's message, code and type. */
    record ApiError(String message, String code, String type) {
        String searchable() {
            return message + " " + (code == null ? "" : code) + " " + (type == null ? "" : type);
        }
    }

    ProviderException fromHttp(int status, HttpHeaders headers, String body) {
        ApiError err = parse(body);
        String text = provider + ": HTTP " + status + (err.message().isEmpty() ? "" : ": " + redactor.redact(err.message()));
        Duration retryAfter = retryAfter(headers, err.message());
        Kind kind = kind(status, err);
        return new ProviderException(kind, text, status, kind == Kind.RATE_LIMITED || kind == Kind.TRANSIENT
                ? retryAfter : null, null);
    }

    /** An {@code error} object sent inside a 200 stream (OpenRouter and others do this). */
    ProviderException fromStreamError(JsonNode error) {
        ApiError err = fromNode(error);
        int status = error.path("code").canConvertToInt() ? error.path("code").asInt() : 0;
        Kind kind = status >= 400 ? kind(status, err) : contentKind(err, Kind.TRANSIENT);
        return new ProviderException(kind, provider + ": error in stream: " + redactor.redact(err.message()),
                status, null, null);
    }

    ProviderException transport(String what, IOException e) {
        String detail = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + redactor.redact(e.getMessage());
        return new ProviderException(Kind.TRANSIENT, provider + ": " + what + " (" + detail + ")", 0, null, e);
    }

    ProviderException timeout(Duration after) {
        return new ProviderException(Kind.TRANSIENT, provider + ": no answer within " + after.toSeconds() + "s",
                0, null, null);
    }

    ProviderException malformed(String what) {
        return new ProviderException(Kind.TRANSIENT, provider + ": " + what, 0, null, null);
    }

    ProviderException fatal(String what) {
        return new ProviderException(Kind.FATAL, provider + ": " + what, 0, null, null);
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
        if (body == null || body.isBlank()) return new ApiError("", null, null);
        String trimmed = body.strip();
        if (trimmed.startsWith("{")) {
            try {
                return fromNode(JSON.readTree(trimmed));
            } catch (IOException e) {
                return new ApiError(firstLine(trimmed), null, null);
            }
        }
        // an HTML error page says nothing useful and may be long
        return new ApiError(trimmed.startsWith("<") ? "" : firstLine(trimmed), null, null);
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

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** From {@code retry-after-ms}, {@code retry-after} (seconds or an HTTP date), or the message's hint. */
    Duration retryAfter(HttpHeaders headers, String message) {
        Optional<String> ms = headers.firstValue("retry-after-ms");
        if (ms.isPresent()) {
            try {
                return nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(ms.get().strip()))));
            } catch (NumberFormatException e) {
                // fall through to the other hints: the header is advisory
            }
        }
        Optional<String> ra = headers.firstValue("retry-after");
        if (ra.isPresent()) {
            Duration d = parseRetryAfter(ra.get().strip());
            if (d != null) return d;
        }
        Matcher m = RETRY_HINT.matcher(message == null ? "" : message);
        if (m.find()) {
            double amount = Double.parseDouble(m.group(2));
            double millis = m.group(3).toLowerCase(Locale.ROOT).startsWith("m") ? amount : amount * 1000;
            if (m.group(1) != null) millis += Long.parseLong(m.group(1)) * 60_000d;
            return Duration.ofMillis(Math.round(millis));
        }
        return null;
    }

    private Duration parseRetryAfter(String value) {
        try {
            return nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000)));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
                return nonNegative(Duration.between(clock.instant(), at.toInstant()));
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
