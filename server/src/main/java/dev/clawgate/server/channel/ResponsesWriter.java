package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.Usage;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A turn answered in the Responses API's shapes (SPEC CH-10): one {@code response} object, or its stream of events as
 * OpenAI sends them: {@code response.created}, {@code response.in_progress}, {@code response.output_item.added},
 * {@code response.content_part.added}, one {@code response.output_text.delta} per piece,
 * {@code response.output_text.done}, {@code response.content_part.done}, {@code response.output_item.done}, then
 * {@code response.completed} (or {@code response.incomplete} when the turn timed out), each with its
 * {@code sequence_number}. The reply is one assistant message with one {@code output_text} part.
 */
final class ResponsesWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Context ctx;
    private final String id;
    private final String itemId = ResponseIds.itemId();
    private final String model;
    private final JsonNode request;
    private final String previous;
    private final long created = Instant.now().getEpochSecond();
    private int sequence;

    ResponsesWriter(Context ctx, String id, String model, JsonNode request, String previous) {
        this.ctx = ctx;
        this.id = id;
        this.model = model;
        this.request = request;
        this.previous = previous;
    }

    void whole(ApiExchange x, long deadlineNanos) throws InterruptedException {
        OpenAiWire.Collected c = OpenAiWire.collect(x, deadlineNanos);
        String text = c == null ? ApiExchange.TIMED_OUT_NOTE : c.text();
        TurnOutcome outcome = c == null ? TurnOutcome.TIMED_OUT : c.outcome();
        ctx.header("X-Clawgate-Outcome", outcome.name().toLowerCase(java.util.Locale.ROOT));
        ctx.contentType("application/json")
                .result(response(status(outcome), text, x.usage()).toString());
    }

    void stream(ApiExchange x, long deadlineNanos) throws IOException, InterruptedException {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream; charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        OutputStream out = ctx.res().getOutputStream();
        ObjectNode started = response("in_progress", null, null);
        event(out, "response.created", JSON.createObjectNode().set("response", started));
        event(out, "response.in_progress", JSON.createObjectNode().set("response", started));
        event(
                out,
                "response.output_item.added",
                JSON.createObjectNode().put("output_index", 0).set("item", item("in_progress", null)));
        event(out, "response.content_part.added", part().set("part", textPart("")));
        StringBuilder shown = new StringBuilder();
        TurnOutcome ended = x.stream(deadlineNanos, piece -> delta(out, shown, piece));
        TurnOutcome outcome = ended == null ? TurnOutcome.TIMED_OUT : ended;
        String text = shown.toString();
        event(out, "response.output_text.done", part().put("text", text));
        event(out, "response.content_part.done", part().set("part", textPart(text)));
        event(
                out,
                "response.output_item.done",
                JSON.createObjectNode().put("output_index", 0).set("item", item("completed", text)));
        String status = status(outcome);
        event(
                out,
                status.equals("incomplete") ? "response.incomplete" : "response.completed",
                JSON.createObjectNode().set("response", response(status, text, x.usage())));
    }

    private static String status(TurnOutcome outcome) {
        return switch (outcome) {
            case TIMED_OUT -> "incomplete";
            case CANCELLED -> "cancelled";
            default -> "completed";
        };
    }

    /** The {@code response} object; {@code text} null while in progress (no output yet, no usage). */
    private ObjectNode response(String status, String text, Usage usage) {
        ObjectNode r = JSON.createObjectNode();
        r.put("id", id)
                .put("object", "response")
                .put("created_at", created)
                .put("status", status)
                .put("model", model);
        r.putNull("error");
        if ("incomplete".equals(status)) r.putObject("incomplete_details").put("reason", "max_output_tokens");
        else r.putNull("incomplete_details");
        copy(r, "instructions");
        r.set("metadata", request.path("metadata").isObject() ? request.path("metadata") : JSON.createObjectNode());
        if (previous == null) r.putNull("previous_response_id");
        else r.put("previous_response_id", previous);
        r.put("parallel_tool_calls", true).put("tool_choice", "auto");
        r.putArray("tools");
        r.put("store", request.path("store").asBoolean(true)).put("truncation", "disabled");
        r.putObject("text").putObject("format").put("type", "text");
        copy(r, "user");
        var output = r.putArray("output");
        if (text != null) output.add(item("completed", text));
        if (usage == null) {
            r.putNull("usage");
        } else {
            ObjectNode u = r.putObject("usage");
            u.put("input_tokens", usage.promptTokens());
            u.putObject("input_tokens_details").put("cached_tokens", 0);
            u.put("output_tokens", usage.completionTokens());
            u.putObject("output_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
            u.put("total_tokens", usage.promptTokens() + usage.completionTokens());
        }
        return r;
    }

    private void copy(ObjectNode r, String field) {
        JsonNode v = request.path(field);
        if (v.isTextual()) r.put(field, v.asText());
        else r.putNull(field);
    }

    private ObjectNode item(String status, String text) {
        ObjectNode i = JSON.createObjectNode();
        i.put("type", "message").put("id", itemId).put("status", status).put("role", "assistant");
        var content = i.putArray("content");
        if (text != null) content.add(textPart(text));
        return i;
    }

    private static ObjectNode textPart(String text) {
        ObjectNode p = JSON.createObjectNode().put("type", "output_text").put("text", text);
        p.putArray("annotations");
        p.putArray("logprobs");
        return p;
    }

    private ObjectNode part() {
        return JSON.createObjectNode()
                .put("item_id", itemId)
                .put("output_index", 0)
                .put("content_index", 0);
    }

    private void delta(OutputStream out, StringBuilder shown, String text) throws IOException {
        shown.append(text);
        ObjectNode d = part().put("delta", text);
        d.putArray("logprobs");
        event(out, "response.output_text.delta", d);
    }

    private void event(OutputStream out, String type, ObjectNode data) throws IOException {
        ObjectNode e = JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
        e.setAll(data);
        out.write(("event: " + type + "\ndata: " + e + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
