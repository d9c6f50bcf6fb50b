package dev.clawgate.testkit.contract;

import java.util.Map;
import java.util.Objects;

/**
 * One request a fake (or real) platform server received, as the capability harness sees it.
 *
 * @param method the platform's method or HTTP verb and path ({@code sendMessage}, {@code POST /callback})
 * @param body the request body as text (JSON, form or multipart), or ""
 */
public record PlatformCall(String method, String body, Map<String, String> headers) {
    public PlatformCall {
        Objects.requireNonNull(method, "method");
        body = body == null ? "" : body;
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
