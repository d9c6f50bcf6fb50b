package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.TurnOutcome;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Writes a turn's events as OpenAI {@code chat.completion.chunk} server-sent events. The final
 * reply adds only what streaming did not already show, so nothing appears twice.
 */
final class ApiStreamWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Context ctx;
    private final String id;
    private final String model;
    private final long created = Instant.now().getEpochSecond();
    private final StringBuilder shown = new StringBuilder();
    private boolean roleSent;

    ApiStreamWriter(Context ctx, String id, String model) {
        this.ctx = ctx;
        this.id = id;
        this.model = model;
    }

    void write(ApiExchange x, long deadlineNanos) throws IOException, InterruptedException {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream; charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        OutputStream out = ctx.res().getOutputStream();
        TurnOutcome outcome = null;
        while (outcome == null) {
            ApiExchange.Event e = x.events.poll(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                outcome = TurnOutcome.FAILED;
                chunk(out, separated("⚠️ The turn did not finish in time."), null);
                break;
            }
            switch (e) {
                case ApiExchange.Delta d -> chunk(out, d.text(), null);
                case ApiExchange.Notice n -> chunk(out, separated(n.text()), null);
                case ApiExchange.Final f -> {
                    if (!normalized(shown.toString()).contains(normalized(f.text()))) chunk(out, separated(f.text()), null);
                }
                case ApiExchange.Ended end -> outcome = end.outcome();
            }
        }
        chunk(out, null, ApiChannel.finishReason(outcome));
        ApiChannel.writeSse(out, "[DONE]");
    }

    private String separated(String text) {
        return shown.isEmpty() ? text : "\n\n" + text;
    }

    private static String normalized(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }

    private void chunk(OutputStream out, String content, String finishReason) throws IOException {
        ObjectNode c = JSON.createObjectNode();
        c.put("id", id).put("object", "chat.completion.chunk").put("created", created).put("model", model);
        ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (!roleSent) {
            delta.put("role", "assistant");
            roleSent = true;
        }
        if (content != null) {
            delta.put("content", content);
            shown.append(content);
        }
        if (finishReason == null) choice.putNull("finish_reason");
        else choice.put("finish_reason", finishReason);
        ApiChannel.writeSse(out, c.toString());
    }
}
