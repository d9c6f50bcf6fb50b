package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenAI-compatible API as a channel (SPEC CH-10): {@code POST /v1/chat/completions}
 * (streaming SSE and not) and {@code GET /v1/models}. Only the last user message is taken; the
 * gateway owns the history. The session is {@code X-Clawgate-Session}, else {@code user}, else a
 * one-off session (SPEC HI-1). Connection-bound: replies go back on the waiting request.
 */
public final class ApiChannel implements Channel {
    public static final String NAME = "api";
    private static final Logger log = LoggerFactory.getLogger(ApiChannel.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, ApiExchange> pending = new ConcurrentHashMap<>();
    private final Supplier<Duration> turnBudget;
    private final Supplier<List<String>> modelNames;
    private volatile InboundSink sink;

    public ApiChannel(Supplier<Duration> turnBudget, Supplier<List<String>> modelNames) {
        this.turnBudget = turnBudget;
        this.modelNames = modelNames;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(InboundSink sink) {
        this.sink = sink;
    }

    @Override
    public void stop() {
        pending.values().forEach(x -> x.events.add(new ApiExchange.Ended(TurnOutcome.CANCELLED)));
    }

    @Override
    public boolean ownerChannel() {
        return true;
    }

    @Override
    public boolean requestResponse() {
        return true;
    }

    @Override
    public MessageAdapter messageAdapter() {
        return adapter;
    }

    /** Requests waiting for their turn: for tests and status. */
    public int waiting() {
        return pending.size();
    }

    private final MessageAdapter adapter = new MessageAdapter() {
        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
            ApiExchange x = pending.get(String.valueOf(message.target().inReplyToMessageId()));
            if (x == null) throw new DeliveryException("the API client is no longer waiting for this reply", true, null);
            x.events.add(message.kind() == OutboundMessage.Kind.NOTICE ? new ApiExchange.Notice(message.text()) : new ApiExchange.Final(message.text()));
            return MessageReceipt.of("msg-" + message.turnId());
        }

        /** SPEC OUT-6: connection-bound, durability disabled: a replayed reply would have no connection to reach. */
        @Override
        public dev.clawgate.core.outbound.Durability durability() {
            return dev.clawgate.core.outbound.Durability.DISABLED;
        }

        @Override
        public int textLimit() {
            return Integer.MAX_VALUE;
        }

        @Override
        public ReplyStream openStream(OutboundTarget target) {
            ApiExchange x = pending.get(String.valueOf(target.inReplyToMessageId()));
            if (x == null || !x.stream) return ReplyStream.NONE;
            return text -> x.events.add(new ApiExchange.Delta(text));
        }

        @Override
        public void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
            ApiExchange x = pending.get(String.valueOf(target.inReplyToMessageId()));
            if (x != null) x.events.add(new ApiExchange.Ended(outcome));
        }
    };

    /** {@code GET /v1/models}. */
    public void models(Context ctx) {
        ObjectNode body = JSON.createObjectNode().put("object", "list");
        ArrayNode data = body.putArray("data");
        for (String id : modelNames.get()) {
            data.addObject().put("id", id).put("object", "model").put("created", 0).put("owned_by", "clawgate");
        }
        ctx.contentType("application/json").result(body.toString());
    }

    /** {@code POST /v1/chat/completions}: records the last user message, then waits for its turn. */
    public void chatCompletions(Context ctx) throws IOException, InterruptedException {
        JsonNode req;
        try {
            req = JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            badRequest(ctx, "the request body is not valid JSON");
            return;
        }
        if (req == null || !req.isObject() || !req.path("messages").isArray()) {
            badRequest(ctx, "'messages' must be an array");
            return;
        }
        String text = lastUserText(req.path("messages"));
        if (text == null) {
            badRequest(ctx, "no user message with text content in 'messages'");
            return;
        }
        String session = firstNonBlank(ctx.header("X-Clawgate-Session"), req.path("user").asText(null));
        String sender = session != null ? session : "oneoff-" + UUID.randomUUID();
        String model = req.path("model").asText("clawgate");
        boolean stream = req.path("stream").asBoolean(false);
        String messageId = "api-" + UUID.randomUUID();
        InboundMessage msg = new InboundMessage(messageId, NAME, null, sender, null, sender, null, null, ChatType.DIRECT,
                true, Instant.now(), text, List.of(), null);
        ApiExchange x = new ApiExchange(messageId, stream);
        pending.put(messageId, x);
        try {
            try {
                sink.accept(msg);
            } catch (StoreException e) {
                log.error("API message not recorded: {}", e.getMessage());
                ctx.status(503).contentType("application/json").result(error("the gateway store is unavailable; retry", "server_error"));
                return;
            }
            String id = "chatcmpl-" + messageId.substring(4);
            if (stream) {
                new ApiStreamWriter(ctx, id, model).write(x, deadline());
            } else {
                respondWhole(ctx, x, id, model);
            }
        } finally {
            pending.remove(messageId);
        }
    }

    private long deadline() {
        return System.nanoTime() + turnBudget.get().plusSeconds(60).toNanos();
    }

    private void respondWhole(Context ctx, ApiExchange x, String id, String model) throws InterruptedException {
        StringBuilder content = new StringBuilder();
        TurnOutcome outcome = null;
        long deadline = deadline();
        while (outcome == null) {
            ApiExchange.Event e = x.events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                ctx.status(504).contentType("application/json").result(error("the turn did not finish in time", "timeout"));
                return;
            }
            switch (e) {
                case ApiExchange.Notice n -> append(content, n.text());
                case ApiExchange.Final f -> append(content, f.text());
                case ApiExchange.Delta d -> { }
                case ApiExchange.Ended end -> outcome = end.outcome();
            }
        }
        ObjectNode body = JSON.createObjectNode();
        body.put("id", id).put("object", "chat.completion").put("created", Instant.now().getEpochSecond()).put("model", model);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content.toString());
        choice.put("finish_reason", finishReason(outcome));
        body.putObject("usage").put("prompt_tokens", 0).put("completion_tokens", 0).put("total_tokens", 0);
        ctx.header("X-Clawgate-Outcome", outcome.name().toLowerCase(java.util.Locale.ROOT));
        ctx.contentType("application/json").result(body.toString());
    }

    static String finishReason(TurnOutcome outcome) {
        return outcome == TurnOutcome.CANCELLED ? "cancelled" : "stop";
    }

    private static void append(StringBuilder sb, String text) {
        if (text == null || text.isEmpty()) return;
        if (!sb.isEmpty()) sb.append("\n\n");
        sb.append(text);
    }

    /** The text of the last user message; content may be a string or an array of parts. */
    static String lastUserText(JsonNode messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"user".equals(m.path("role").asText())) continue;
            JsonNode c = m.path("content");
            if (c.isTextual()) return c.asText().isBlank() ? null : c.asText();
            if (c.isArray()) {
                StringBuilder sb = new StringBuilder();
                for (JsonNode part : c) {
                    if ("text".equals(part.path("type").asText())) {
                        if (!sb.isEmpty()) sb.append('\n');
                        sb.append(part.path("text").asText());
                    }
                }
                return sb.isEmpty() ? null : sb.toString();
            }
            return null;
        }
        return null;
    }

    private static String firstNonBlank(String a, String b) {
        if (a != null && !a.isBlank()) return a.trim();
        if (b != null && !b.isBlank()) return b.trim();
        return null;
    }

    private static void badRequest(Context ctx, String message) {
        ctx.status(400).contentType("application/json").result(error(message, "invalid_request_error"));
    }

    static String error(String message, String type) {
        ObjectNode n = JSON.createObjectNode();
        n.putObject("error").put("message", message).put("type", type);
        return n.toString();
    }

    static void writeSse(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
