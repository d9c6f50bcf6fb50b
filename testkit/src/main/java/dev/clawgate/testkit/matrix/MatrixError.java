package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A Client-Server API error: the HTTP status and the standard error body {@code {"errcode","error"}} (Client-Server
 * API, "Standard error response"). A 429 carries {@code retry_after_ms}; a 401 {@code M_UNKNOWN_TOKEN} carries
 * {@code soft_logout}.
 */
final class MatrixError extends Exception {
    final int status;
    final String errcode;
    final Long retryAfterMs;

    MatrixError(int status, String errcode, String message) {
        this(status, errcode, message, null);
    }

    private MatrixError(int status, String errcode, String message, Long retryAfterMs) {
        super(message, null, false, false);
        this.status = status;
        this.errcode = errcode;
        this.retryAfterMs = retryAfterMs;
    }

    static MatrixError forbidden(String message) {
        return new MatrixError(403, "M_FORBIDDEN", message);
    }

    static MatrixError notFound(String message) {
        return new MatrixError(404, "M_NOT_FOUND", message);
    }

    static MatrixError badJson(String message) {
        return new MatrixError(400, "M_BAD_JSON", message);
    }

    static MatrixError notJson() {
        return new MatrixError(400, "M_NOT_JSON", "Content not JSON.");
    }

    static MatrixError invalidParam(String message) {
        return new MatrixError(400, "M_INVALID_PARAM", message);
    }

    static MatrixError missingToken() {
        return new MatrixError(401, "M_MISSING_TOKEN", "Missing access token");
    }

    static MatrixError unknownToken() {
        return new MatrixError(401, "M_UNKNOWN_TOKEN", "Invalid access token passed.");
    }

    static MatrixError unrecognized(int status) {
        return new MatrixError(status, "M_UNRECOGNIZED", "Unrecognized request");
    }

    /** Client-Server API, "Rate limiting": 429 {@code M_LIMIT_EXCEEDED} with {@code retry_after_ms}. */
    static MatrixError limitExceeded(long retryAfterMs) {
        return new MatrixError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", retryAfterMs);
    }

    ObjectNode body() {
        ObjectNode n =
                JsonNodeFactory.instance.objectNode().put("errcode", errcode).put("error", getMessage());
        if (retryAfterMs != null) n.put("retry_after_ms", retryAfterMs);
        if (errcode.equals("M_UNKNOWN_TOKEN")) n.put("soft_logout", false);
        return n;
    }
}
