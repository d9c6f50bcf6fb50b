package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.server.http.ErrorBody;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The OpenAI-compatible API's wire pieces shared by Chat Completions and Responses (SPEC CH-10): the request body read
 * as a JSON object, the error envelope, usage, the system fingerprint, SSE lines, and a turn's whole reply collected
 * from its exchange.
 */
final class OpenAiWire {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OpenAiWire() {}

    /** A turn's whole reply: its notices and final text, and how it ended. */
    record Collected(String text, TurnOutcome outcome) {}

    /** Waits for the turn's end; null when it did not come by {@code deadline}. */
    static Collected collect(ApiExchange x, long deadline) throws InterruptedException {
        StringBuilder content = new StringBuilder();
        while (true) {
            ApiExchange.Event e = x.events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) return null;
            switch (e) {
                case ApiExchange.Notice n -> append(content, n.text());
                case ApiExchange.Final f -> append(content, f.text());
                case ApiExchange.Delta d -> {}
                case ApiExchange.Ended end -> {
                    return new Collected(content.toString(), end.outcome());
                }
            }
        }
    }

    /** Chat Completions' usage object (SPEC CH-10): the turn's tokens, summed over its model calls. */
    static ObjectNode chatUsage(Usage u) {
        ObjectNode n = JSON.createObjectNode();
        n.put("prompt_tokens", u.promptTokens())
                .put("completion_tokens", u.completionTokens())
                .put("total_tokens", u.promptTokens() + u.completionTokens());
        n.putObject("prompt_tokens_details").put("cached_tokens", 0);
        n.putObject("completion_tokens_details").put("reasoning_tokens", u.reasoningTokens());
        return n;
    }

    /** A stable fingerprint of what answers as {@code model}: the gateway's build and the model name. */
    static String fingerprint(String model) {
        String version = OpenAiWire.class.getPackage().getImplementationVersion();
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(("clawgate " + version + " " + model).getBytes(StandardCharsets.UTF_8));
            return "fp_" + java.util.HexFormat.of().formatHex(h, 0, 5);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** The request body as a JSON object; null when it was answered 400. */
    static JsonNode body(Context ctx) {
        JsonNode req;
        try {
            req = JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            error(ctx, 400, "the request body is not valid JSON", null, null);
            return null;
        }
        if (req == null || !req.isObject()) {
            error(ctx, 400, "the request body must be a JSON object", null, null);
            return null;
        }
        return req;
    }

    static void error(Context ctx, int status, String message, String param, String code) {
        error(ctx, status, message, param, code, status == 429 ? "rate_limit_error" : "invalid_request_error");
    }

    static void error(Context ctx, int status, String message, String param, String code, String type) {
        ctx.status(status).contentType("application/json").result(ErrorBody.of(message, type, param, code));
    }

    static String finishReason(TurnOutcome outcome) {
        return outcome == TurnOutcome.CANCELLED ? "cancelled" : "stop";
    }

    private static void append(StringBuilder sb, String text) {
        if (text == null || text.isEmpty()) return;
        if (!sb.isEmpty()) sb.append("\n\n");
        sb.append(text);
    }

    static String firstNonBlank(String a, String b) {
        if (a != null && !a.isBlank()) return a.trim();
        if (b != null && !b.isBlank()) return b.trim();
        return null;
    }

    static void writeSse(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
