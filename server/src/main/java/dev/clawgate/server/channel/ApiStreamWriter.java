package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.TurnOutcome;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;

/**
 * Writes a turn's events as OpenAI {@code chat.completion.chunk} server-sent events. The final reply adds only what
 * streaming did not already show, so nothing appears twice. With {@code stream_options.include_usage} every chunk
 * carries {@code "usage": null} and a last chunk, with no choices, the turn's usage (SPEC CH-10).
 */
final class ApiStreamWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Context ctx;
    private final String id;
    private final String model;
    private final String fingerprint;
    private final boolean includeUsage;
    private final long created = Instant.now().getEpochSecond();
    private boolean roleSent;

    ApiStreamWriter(Context ctx, String id, String model, String fingerprint, boolean includeUsage) {
        this.ctx = ctx;
        this.id = id;
        this.model = model;
        this.fingerprint = fingerprint;
        this.includeUsage = includeUsage;
    }

    void write(ApiExchange x, long deadlineNanos) throws IOException, InterruptedException {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream; charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        OutputStream out = ctx.res().getOutputStream();
        TurnOutcome ended = x.stream(deadlineNanos, text -> chunk(out, text, null));
        TurnOutcome outcome = ended == null ? TurnOutcome.FAILED : ended;
        chunk(out, null, OpenAiWire.finishReason(outcome));
        if (includeUsage) {
            ObjectNode last = head();
            last.putArray("choices");
            last.set("usage", OpenAiWire.chatUsage(x.usage()));
            OpenAiWire.writeSse(out, last.toString());
        }
        OpenAiWire.writeSse(out, "[DONE]");
    }

    private ObjectNode head() {
        ObjectNode c = JSON.createObjectNode();
        c.put("id", id)
                .put("object", "chat.completion.chunk")
                .put("created", created)
                .put("model", model)
                .put("system_fingerprint", fingerprint);
        return c;
    }

    private void chunk(OutputStream out, String content, String finishReason) throws IOException {
        ObjectNode c = head();
        ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (!roleSent) {
            delta.put("role", "assistant");
            roleSent = true;
        }
        if (content != null) delta.put("content", content);
        choice.putNull("logprobs");
        if (finishReason == null) choice.putNull("finish_reason");
        else choice.put("finish_reason", finishReason);
        if (includeUsage) c.putNull("usage");
        OpenAiWire.writeSse(out, c.toString());
    }
}
