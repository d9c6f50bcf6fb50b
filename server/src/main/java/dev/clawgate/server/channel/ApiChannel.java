package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.StoreException;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenAI-compatible API as a channel (SPEC CH-10): {@code POST /v1/chat/completions} and {@code POST /v1/responses}
 * (each streaming SSE and not), {@code GET /v1/models} and {@code GET /v1/models/{id}}. The session is
 * {@code X-Clawgate-Session}, else {@code user} (for the Responses API also the chain of {@code previous_response_id}):
 * then only the last user message is taken and the gateway owns the history (SPEC HI-1). Without one the call is
 * stateless, as OpenAI clients expect: its turn runs on the conversation the request carries, system messages included,
 * and writes no history. Connection-bound: replies go back on the waiting request. Answers carry the turn's real token
 * usage; errors come in OpenAI's envelope ({@link OpenAiWire#error}).
 */
public final class ApiChannel implements Channel {
    public static final String NAME = "api";
    public static final String SESSION_HEADER = "X-Clawgate-Session";
    /** The sender of a stateless call: a lane of its own per request. */
    static final String STATELESS_PREFIX = "stateless-";

    private static final Logger log = LoggerFactory.getLogger(ApiChannel.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, ApiExchange> pending = new ConcurrentHashMap<>();

    private final Supplier<Duration> turnBudget;
    private final Supplier<List<String>> modelNames;
    private volatile InboundSink sink;

    private final java.util.function.IntSupplier maxWaiting;

    /**
     * @param maxWaiting how many API requests may wait for their turns at once ({@code [dispatch] bus_capacity}); one
     *     more is answered 429 at once instead of holding its connection behind a full bus (SPEC DI-1)
     */
    public ApiChannel(
            Supplier<Duration> turnBudget,
            Supplier<List<String>> modelNames,
            java.util.function.IntSupplier maxWaiting) {
        this.turnBudget = turnBudget;
        this.modelNames = modelNames;
        this.maxWaiting = maxWaiting;
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

    /** SPEC SP-1: what this channel renders, for the prompt's Channel Capabilities section. */
    @Override
    public String formatGuidance() {
        return "API clients may show plain text or render Markdown: use light Markdown that still reads well as plain "
                + "text.";
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
            if (x == null)
                throw new DeliveryException("the API client is no longer waiting for this reply", true, null);
            x.events.add(
                    message.kind() == OutboundMessage.Kind.NOTICE
                            ? new ApiExchange.Notice(message.text())
                            : new ApiExchange.Final(message.text()));
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
        public void turnUsage(OutboundTarget target, long turnId, Usage usage) {
            ApiExchange x = pending.get(String.valueOf(target.inReplyToMessageId()));
            if (x != null) x.usage(usage);
        }

        @Override
        public Optional<List<ChatMessage>> carriedConversation(OutboundTarget target) {
            ApiExchange x = pending.get(String.valueOf(target.inReplyToMessageId()));
            return x == null || x.carried == null ? Optional.empty() : Optional.of(x.carried);
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
        for (String id : modelNames.get()) data.add(model(id));
        ctx.contentType("application/json").result(body.toString());
    }

    /** {@code GET /v1/models/{id}}: the model, or 404 in OpenAI's envelope. */
    public void model(Context ctx) {
        String id = ctx.pathParam("id");
        if (!modelNames.get().contains(id)) {
            unknownModel(ctx, id);
            return;
        }
        ctx.contentType("application/json").result(model(id).toString());
    }

    private static ObjectNode model(String id) {
        return JSON.createObjectNode()
                .put("id", id)
                .put("object", "model")
                .put("created", 0)
                .put("owned_by", "clawgate");
    }

    /** {@code POST /v1/chat/completions}: a turn for the last user message, answered as a chat completion. */
    public void chatCompletions(Context ctx) throws IOException, InterruptedException {
        JsonNode req = OpenAiWire.body(ctx);
        if (req == null) return;
        if (!req.path("messages").isArray()) {
            OpenAiWire.error(ctx, 400, "'messages' must be an array", "messages", null);
            return;
        }
        ApiConversation conversation = ApiConversation.ofMessages(req.path("messages"));
        if (conversation.lastUserText() == null) {
            OpenAiWire.error(ctx, 400, "no user message with text content in 'messages'", "messages", null);
            return;
        }
        String model = model(ctx, req);
        if (model == null) return;
        String session = OpenAiWire.firstNonBlank(
                ctx.header(SESSION_HEADER), req.path("user").asText(null));
        boolean stream = req.path("stream").asBoolean(false);
        boolean includeUsage = req.path("stream_options").path("include_usage").asBoolean(false);
        Turn turn = start(ctx, conversation, session, stream);
        if (turn == null) return;
        try {
            String id = "chatcmpl-" + turn.id();
            if (stream) {
                new ApiStreamWriter(ctx, id, model, OpenAiWire.fingerprint(model), includeUsage)
                        .write(turn.exchange(), deadline());
            } else {
                respondWhole(ctx, turn.exchange(), id, model);
            }
        } finally {
            turn.close();
        }
    }

    /**
     * {@code POST /v1/responses} (the Responses API): {@code instructions} and {@code input} map onto a turn like chat
     * completions. The session: the header or {@code user}, else the chain {@code previous_response_id} names, else,
     * with {@code store} (OpenAI's default), a new chain whose later responses continue it; {@code store: false} is a
     * stateless call.
     */
    public void responses(Context ctx) throws IOException, InterruptedException {
        JsonNode req = OpenAiWire.body(ctx);
        if (req == null) return;
        JsonNode input = req.path("input");
        if (!input.isTextual() && !input.isArray()) {
            OpenAiWire.error(ctx, 400, "'input' must be a string or an array of input items", "input", null);
            return;
        }
        ApiConversation conversation =
                ApiConversation.ofResponsesInput(req.path("instructions").asText(null), input);
        if (conversation.lastUserText() == null) {
            OpenAiWire.error(ctx, 400, "no user message with text content in 'input'", "input", null);
            return;
        }
        String model = model(ctx, req);
        if (model == null) return;
        String previous = req.path("previous_response_id").asText(null);
        String chain;
        if (previous != null && !previous.isBlank()) {
            chain = ResponseIds.chainOf(previous);
            if (chain == null) {
                OpenAiWire.error(
                        ctx,
                        404,
                        "Previous response with id '" + previous + "' not found.",
                        "previous_response_id",
                        "previous_response_not_found");
                return;
            }
        } else {
            chain = ResponseIds.newChain();
        }
        String session = OpenAiWire.firstNonBlank(
                ctx.header(SESSION_HEADER), req.path("user").asText(null));
        boolean store = req.path("store").asBoolean(true);
        if (session == null && (store || previous != null)) session = ResponseIds.SESSION_PREFIX + chain;
        boolean stream = req.path("stream").asBoolean(false);
        Turn turn = start(ctx, conversation, session, stream);
        if (turn == null) return;
        try {
            ResponsesWriter writer = new ResponsesWriter(ctx, ResponseIds.responseId(chain), model, req, previous);
            if (stream) writer.stream(turn.exchange(), deadline());
            else writer.whole(turn.exchange(), deadline());
        } finally {
            turn.close();
        }
    }

    /** A recorded request waiting for its turn; closing it stops waiting. */
    private record Turn(String id, ApiExchange exchange, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }

    /**
     * Records the request's last user message for a turn of {@code session} (null: a stateless call on the conversation
     * it carries); null when it was answered already (busy, refused, store down).
     */
    private Turn start(Context ctx, ApiConversation conversation, String session, boolean stream) {
        String uuid = UUID.randomUUID().toString().replace("-", "");
        String messageId = "api-" + uuid;
        if (pending.size() >= Math.max(1, maxWaiting.getAsInt())) {
            ctx.header("Retry-After", "1");
            OpenAiWire.error(
                    ctx,
                    429,
                    "the gateway is busy: " + pending.size()
                            + " API requests are waiting for their turns; retry shortly",
                    null,
                    "gateway_busy");
            return null;
        }
        // SPEC CH-10: a stateless call gets a lane of its own (its sender), and its turn keeps no history
        String sender = session != null ? session : STATELESS_PREFIX + uuid;
        InboundMessage msg = InboundMessage.builder()
                .id(messageId)
                .channel(NAME)
                .sender(sender)
                .replyTarget(sender)
                .text(conversation.lastUserText())
                .build();
        ApiExchange x = new ApiExchange(messageId, stream, session == null ? conversation.before() : null);
        pending.put(messageId, x);
        Runnable close = () -> pending.remove(messageId);
        boolean started = false;
        try {
            InboundSink.Acceptance accepted;
            try {
                accepted = sink.accept(msg);
            } catch (StoreException e) {
                log.error("API message not recorded: {}", e.getMessage());
                OpenAiWire.error(
                        ctx, 503, "the gateway store is unavailable; retry", null, "store_unavailable", "server_error");
                return null;
            }
            // SPEC OP-10: refused before its text was stored; answered now, not after a wait for a turn that never runs
            if (accepted.refused()) {
                OpenAiWire.error(ctx, 413, accepted.refusal(), "messages", "message_too_long");
                return null;
            }
            started = true;
            return new Turn(uuid.substring(0, 24), x, close);
        } finally {
            if (!started) close.run();
        }
    }

    private long deadline() {
        return System.nanoTime() + turnBudget.get().plusSeconds(60).toNanos();
    }

    private void respondWhole(Context ctx, ApiExchange x, String id, String model) throws InterruptedException {
        OpenAiWire.Collected c = OpenAiWire.collect(x, deadline());
        if (c == null) {
            OpenAiWire.error(ctx, 504, "the turn did not finish in time", null, "timeout", "server_error");
            return;
        }
        ObjectNode body = JSON.createObjectNode();
        body.put("id", id)
                .put("object", "chat.completion")
                .put("created", Instant.now().getEpochSecond())
                .put("model", model)
                .put("system_fingerprint", OpenAiWire.fingerprint(model));
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message")
                .put("role", "assistant")
                .put("content", c.text())
                .putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", OpenAiWire.finishReason(c.outcome()));
        body.set("usage", OpenAiWire.chatUsage(x.usage()));
        ctx.header("X-Clawgate-Outcome", c.outcome().name().toLowerCase(java.util.Locale.ROOT));
        ctx.contentType("application/json").result(body.toString());
    }

    /** The model asked for (absent: the gateway's first); null when it is unknown and was answered 404. */
    private String model(Context ctx, JsonNode req) {
        List<String> names = modelNames.get();
        JsonNode m = req.path("model");
        if (m.isMissingNode() || m.isNull()) return names.getFirst();
        if (!m.isTextual() || !names.contains(m.asText())) {
            unknownModel(ctx, m.asText(m.toString()));
            return null;
        }
        return m.asText();
    }

    private static void unknownModel(Context ctx, String id) {
        OpenAiWire.error(ctx, 404, "The model '" + id + "' does not exist", "model", "model_not_found");
    }
}
