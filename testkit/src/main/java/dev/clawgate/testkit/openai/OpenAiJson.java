package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.internal.TextPieces;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The JSON documents OpenAI's chat-completions API sends, built from a {@link Reply}. */
final class OpenAiJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int ARGUMENT_FRAGMENT = 8;

    private OpenAiJson() {}

    /** What one answer is identified and counted by. */
    record Envelope(String id, long created, String model, long promptTokens, long completionTokens) {}

    static String errorBody(String message, String type, String param, String code) {
        ObjectNode err = MAPPER.createObjectNode();
        err.put("message", message);
        err.put("type", type);
        err.put("param", param);
        err.put("code", code);
        ObjectNode root = MAPPER.createObjectNode();
        root.set("error", err);
        return write(root);
    }

    static String completion(Envelope env, Reply r) {
        ObjectNode message = MAPPER.createObjectNode();
        message.put("role", "assistant");
        message.put("content", r.content);
        if (r.reasoning != null) message.put("reasoning_content", r.reasoning);
        if (!r.calls.isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (Reply.Call c : r.calls) {
                ObjectNode call = calls.addObject();
                call.put("id", c.id());
                call.put("type", "function");
                ObjectNode fn = call.putObject("function");
                fn.put("name", c.name());
                fn.put("arguments", c.arguments());
            }
        }
        message.putNull("refusal");
        ObjectNode root = header(env, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", r.effectiveFinishReason());
        root.set("usage", usage(env));
        return write(root);
    }

    /** The {@code data:} payloads of a streamed answer, in order, ending with {@code [DONE]}. */
    static List<String> chunks(Envelope env, Reply r, boolean includeUsage) {
        List<String> out = new ArrayList<>();
        ObjectNode first = MAPPER.createObjectNode();
        first.put("role", "assistant");
        boolean toolsOnly = r.content == null && r.reasoning == null && !r.calls.isEmpty();
        if (toolsOnly) {
            first.putNull("content");
        } else {
            first.put("content", "");
        }
        first.putNull("refusal");
        int startCall = 0;
        if (toolsOnly) {
            callHeader(first, 0, r.calls.getFirst());
            out.add(chunk(env, first, null, includeUsage));
            addArguments(out, env, 0, r.calls.getFirst(), includeUsage);
            startCall = 1;
        } else {
            out.add(chunk(env, first, null, includeUsage));
        }
        if (r.reasoning != null) {
            for (String piece : TextPieces.split(r.reasoning, 0)) {
                out.add(chunk(env, MAPPER.createObjectNode().put("reasoning_content", piece), null, includeUsage));
            }
        }
        if (r.content != null) {
            for (String piece : TextPieces.split(r.content, r.chunks)) {
                out.add(chunk(env, MAPPER.createObjectNode().put("content", piece), null, includeUsage));
            }
        }
        for (int i = startCall; i < r.calls.size(); i++) {
            ObjectNode delta = MAPPER.createObjectNode();
            callHeader(delta, i, r.calls.get(i));
            out.add(chunk(env, delta, null, includeUsage));
            addArguments(out, env, i, r.calls.get(i), includeUsage);
        }
        if (r.streamError != null) {
            out.add(r.streamError);
            return out;
        }
        out.add(chunk(env, MAPPER.createObjectNode(), r.effectiveFinishReason(), includeUsage));
        if (includeUsage) {
            ObjectNode last = header(env, "chat.completion.chunk");
            last.putArray("choices");
            last.set("usage", usage(env));
            out.add(write(last));
        }
        out.add("[DONE]");
        return out;
    }

    static String models(List<String> ids, long created) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (String id : ids) {
            data.addObject()
                    .put("id", id)
                    .put("object", "model")
                    .put("created", created)
                    .put("owned_by", "clawgate-fake");
        }
        return write(root);
    }

    private static void callHeader(ObjectNode delta, int index, Reply.Call c) {
        ObjectNode call = delta.putArray("tool_calls").addObject();
        call.put("index", index);
        call.put("id", c.id());
        call.put("type", "function");
        call.putObject("function").put("name", c.name()).put("arguments", "");
    }

    private static void addArguments(List<String> out, Envelope env, int index, Reply.Call c, boolean includeUsage) {
        int pieces =
                (c.arguments().codePointCount(0, c.arguments().length()) + ARGUMENT_FRAGMENT - 1) / ARGUMENT_FRAGMENT;
        for (String fragment : TextPieces.split(c.arguments(), Math.max(pieces, 1))) {
            ObjectNode delta = MAPPER.createObjectNode();
            ObjectNode call = delta.putArray("tool_calls").addObject();
            call.put("index", index);
            call.putObject("function").put("arguments", fragment);
            out.add(chunk(env, delta, null, includeUsage));
        }
    }

    private static String chunk(Envelope env, ObjectNode delta, String finishReason, boolean includeUsage) {
        ObjectNode root = header(env, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        if (includeUsage) root.putNull("usage");
        return write(root);
    }

    private static ObjectNode header(Envelope env, String object) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("id", env.id());
        root.put("object", object);
        root.put("created", env.created());
        root.put("model", env.model());
        root.put("system_fingerprint", "fp_clawgate_fake");
        return root;
    }

    private static ObjectNode usage(Envelope env) {
        ObjectNode u = MAPPER.createObjectNode();
        u.put("prompt_tokens", env.promptTokens());
        u.put("completion_tokens", env.completionTokens());
        u.put("total_tokens", env.promptTokens() + env.completionTokens());
        return u;
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
