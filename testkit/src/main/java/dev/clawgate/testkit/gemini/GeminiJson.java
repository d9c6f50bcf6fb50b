package dev.clawgate.testkit.gemini;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.internal.TextPieces;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The JSON documents the Gemini API sends, built from a {@link Reply}. */
final class GeminiJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> HARM_CATEGORIES = List.of(
            "HARM_CATEGORY_HATE_SPEECH",
            "HARM_CATEGORY_DANGEROUS_CONTENT",
            "HARM_CATEGORY_HARASSMENT",
            "HARM_CATEGORY_SEXUALLY_EXPLICIT");

    private GeminiJson() {}

    /** What one answer is identified and counted by. */
    record Envelope(String responseId, String model, long promptTokens, long candidateTokens) {}

    /** Google's error shape; with a delay, a {@code RetryInfo} and a {@code QuotaFailure} detail as a 429 carries. */
    static String errorBody(int code, String status, String message, Duration retryDelay) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode err = root.putObject("error");
        err.put("code", code).put("message", message).put("status", status);
        if (retryDelay != null) {
            ArrayNode details = err.putArray("details");
            ObjectNode quota = details.addObject();
            quota.put("@type", "type.googleapis.com/google.rpc.QuotaFailure");
            quota.putArray("violations")
                    .addObject()
                    .put("quotaMetric", "generativelanguage.googleapis.com/generate_content_free_tier_requests")
                    .put("quotaId", "GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
            details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.Help")
                    .putArray("links")
                    .addObject()
                    .put("description", "Learn more about Gemini API quotas")
                    .put("url", "https://ai.google.dev/gemini-api/docs/rate-limits");
            details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.RetryInfo")
                    .put("retryDelay", protoDuration(retryDelay));
        }
        return write(root);
    }

    /** An invalid key, as the API answers it: 400 INVALID_ARGUMENT with an ErrorInfo of reason API_KEY_INVALID. */
    static String invalidKey() {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode err = root.putObject("error");
        err.put("code", 400)
                .put("message", "API key not valid. Please pass a valid API key.")
                .put("status", "INVALID_ARGUMENT");
        err.putArray("details")
                .addObject()
                .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                .put("reason", "API_KEY_INVALID")
                .put("domain", "googleapis.com");
        return write(root);
    }

    /** A {@code google.protobuf.Duration} in its JSON form: {@code "37s"}, {@code "1.500s"}. */
    static String protoDuration(Duration d) {
        BigDecimal seconds = BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros();
        return (seconds.scale() < 0 ? seconds.setScale(0) : seconds).toPlainString() + "s";
    }

    static String responseId() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 22);
    }

    /** The whole answer of {@code generateContent}. */
    static String response(Envelope env, Reply r) {
        if (r.s.blockReason() != null) return write(blocked(env, r));
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode candidate = root.putArray("candidates").addObject();
        ArrayNode parts = MAPPER.createArrayNode();
        if (r.s.thought() != null) parts.addObject().put("text", r.s.thought()).put("thought", true);
        if (r.s.text() != null) parts.addObject().put("text", r.s.text());
        for (Reply.Call c : r.s.calls()) parts.add(callPart(c));
        if (!parts.isEmpty()) {
            ObjectNode content = candidate.putObject("content");
            content.set("parts", parts);
            content.put("role", "model");
        }
        finish(candidate, r);
        usage(root, env, true);
        return write(root);
    }

    /** The chunks of {@code streamGenerateContent}, each one response object. */
    static List<String> chunks(Envelope env, Reply r) {
        List<String> out = new ArrayList<>();
        if (r.s.blockReason() != null) {
            out.add(write(blocked(env, r)));
            return out;
        }
        List<ArrayNode> partGroups = new ArrayList<>();
        if (r.s.thought() != null)
            partGroups.add(MAPPER.createArrayNode()
                    .add(MAPPER.createObjectNode().put("text", r.s.thought()).put("thought", true)));
        if (r.s.text() != null) {
            for (String piece : TextPieces.split(r.s.text(), r.s.chunks())) {
                partGroups.add(
                        MAPPER.createArrayNode().add(MAPPER.createObjectNode().put("text", piece)));
            }
        }
        // the API sends each function call whole, in one chunk
        if (!r.s.calls().isEmpty()) {
            ArrayNode calls = MAPPER.createArrayNode();
            for (Reply.Call c : r.s.calls()) calls.add(callPart(c));
            partGroups.add(calls);
        }
        if (partGroups.isEmpty()) partGroups.add(null);
        for (int i = 0; i < partGroups.size(); i++) {
            boolean last = i == partGroups.size() - 1;
            ObjectNode root = MAPPER.createObjectNode();
            ObjectNode candidate = root.putArray("candidates").addObject();
            if (partGroups.get(i) != null) {
                ObjectNode content = candidate.putObject("content");
                content.set("parts", partGroups.get(i));
                content.put("role", "model");
            }
            if (last) finish(candidate, r);
            candidate.put("index", 0);
            usage(root, env, last);
            out.add(write(root));
        }
        if (r.s.streamError() != null) {
            out.add(errorBody(500, "INTERNAL", r.s.streamError(), null));
        }
        return out;
    }

    static String models(List<String> ids) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode models = root.putArray("models");
        for (String id : ids) {
            ObjectNode m = models.addObject();
            m.put("name", "models/" + id)
                    .put("displayName", id)
                    .put("inputTokenLimit", 1048576)
                    .put("outputTokenLimit", 65536);
            m.putArray("supportedGenerationMethods").add("generateContent").add("countTokens");
        }
        models.addObject()
                .put("name", "models/text-embedding-004")
                .putArray("supportedGenerationMethods")
                .add("embedContent");
        return write(root);
    }

    private static ObjectNode blocked(Envelope env, Reply r) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode feedback = root.putObject("promptFeedback");
        feedback.put("blockReason", r.s.blockReason());
        ratings(feedback.putArray("safetyRatings"), true);
        ObjectNode usage = root.putObject("usageMetadata");
        usage.put("promptTokenCount", env.promptTokens()).put("totalTokenCount", env.promptTokens());
        root.put("modelVersion", env.model()).put("responseId", env.responseId());
        return root;
    }

    private static void finish(ObjectNode candidate, Reply r) {
        String reason = r.effectiveFinishReason();
        candidate.put("finishReason", reason);
        if (!reason.equals("STOP") && !reason.equals("MAX_TOKENS"))
            ratings(candidate.putArray("safetyRatings"), reason.equals("SAFETY"));
    }

    private static void ratings(ArrayNode ratings, boolean blocked) {
        for (int i = 0; i < HARM_CATEGORIES.size(); i++) {
            ObjectNode rating = ratings.addObject()
                    .put("category", HARM_CATEGORIES.get(i))
                    .put("probability", blocked && i == 1 ? "HIGH" : "NEGLIGIBLE");
            if (blocked && i == 1) rating.put("blocked", true);
        }
    }

    private static ObjectNode callPart(Reply.Call c) {
        ObjectNode part = MAPPER.createObjectNode();
        ObjectNode call = part.putObject("functionCall");
        if (c.id() != null) call.put("id", c.id());
        call.put("name", c.name());
        call.set("args", parseObject(c.argsJson()));
        if (c.thoughtSignature() != null) part.put("thoughtSignature", c.thoughtSignature());
        return part;
    }

    private static void usage(ObjectNode root, Envelope env, boolean complete) {
        ObjectNode usage = root.putObject("usageMetadata");
        usage.put("promptTokenCount", env.promptTokens());
        if (complete) usage.put("candidatesTokenCount", env.candidateTokens());
        usage.put("totalTokenCount", env.promptTokens() + (complete ? env.candidateTokens() : 0));
        root.put("modelVersion", env.model()).put("responseId", env.responseId());
    }

    private static JsonNode parseObject(String json) {
        try {
            JsonNode n = MAPPER.readTree(json);
            if (n == null || !n.isObject())
                throw new IllegalArgumentException("function call args must be a JSON object: " + json);
            return n;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("function call args are not JSON: " + json, e);
        }
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
