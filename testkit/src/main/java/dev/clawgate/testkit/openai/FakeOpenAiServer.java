package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.internal.FakeModelServer;
import dev.clawgate.testkit.internal.ModelApiRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A fake OpenAI-compatible chat-completions and embeddings server on a free loopback port. It speaks the real HTTP +
 * SSE wire format, so the production client runs unchanged against it.
 *
 * <p>Each {@code POST /v1/chat/completions} takes the next {@link #enqueue enqueued} reply; when the queue is empty it
 * asks the {@link #respondWith responder}, then falls back to the {@link #defaultReply default reply} (by default: echo
 * the last user message). Every request is recorded before it is answered. With a {@link #requireApiKey key} set, a
 * request without {@code Authorization: Bearer <key>} gets OpenAI's 401; with null, the default, any is accepted.
 */
public final class FakeOpenAiServer extends FakeModelServer<FakeOpenAiServer, Reply, RecordedRequest> {
    static final String CHAT_PATH = "/v1/chat/completions";
    static final String MODELS_PATH = "/v1/models";
    static final String EMBEDDINGS_PATH = "/v1/embeddings";

    /** The vector the fake's {@code /v1/embeddings} gives a text unless told otherwise: see {@link #embedWith}. */
    private volatile Function<String, float[]> embedding = FakeOpenAiServer::wordHashes;

    private final AtomicLong completionIds = new AtomicLong();

    private FakeOpenAiServer() {
        super("OpenAI", RecordedRequest::new, FakeOpenAiServer::echo, List.of("gpt-4o-mini", "gpt-4o"));
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static FakeOpenAiServer start() {
        return new FakeOpenAiServer().listening();
    }

    /** {@code http://127.0.0.1:PORT/v1}: what a client configures as its base URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** Only the chat-completions requests. */
    public List<RecordedRequest> chatRequests() {
        return requests().stream().filter(RecordedRequest::isChatCompletion).toList();
    }

    @Override
    protected void answer(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        String path = ex.getRequestURI().getPath();
        if (CHAT_PATH.equals(path) && "POST".equals(ex.getRequestMethod())) {
            chat(ex, req);
        } else if (EMBEDDINGS_PATH.equals(path) && "POST".equals(ex.getRequestMethod())) {
            if (authorised(ex)) embeddings(ex, req);
        } else if (MODELS_PATH.equals(path) && "GET".equals(ex.getRequestMethod())) {
            if (authorised(ex)) sendJson(ex, 200, Map.of(), OpenAiJson.models(modelIds(), created()));
        } else {
            sendJson(
                    ex,
                    404,
                    Map.of(),
                    OpenAiJson.errorBody(
                            "Unknown request URL: " + ex.getRequestMethod() + " " + path + ".",
                            "invalid_request_error",
                            null,
                            "unknown_url"));
        }
    }

    /** Only the embeddings requests. */
    public List<RecordedRequest> embeddingRequests() {
        return requests().stream().filter(r -> EMBEDDINGS_PATH.equals(r.path())).toList();
    }

    /**
     * What {@code POST /v1/embeddings} answers for each input text. The default gives 16 dimensions: one count per
     * word, at a slot its hash picks, so texts sharing words have similar vectors.
     */
    public FakeOpenAiServer embedWith(Function<String, float[]> embedding) {
        this.embedding = java.util.Objects.requireNonNull(embedding, "embedding");
        return this;
    }

    /**
     * OpenAI's embeddings API: {@code input} a string or an array of strings, {@code model} required; the answer is a
     * {@code list} of {@code embedding} objects with their {@code index}, in input order, and the usage.
     */
    private void embeddings(HttpExchange ex, RecordedRequest req) throws IOException {
        JsonNode body = req.body();
        JsonNode input = body.path("input");
        String problem = body.isMissingNode()
                ? "We could not parse the JSON body of your request."
                : !body.path("model").isTextual()
                        ? "you must provide a model parameter"
                        : !(input.isTextual() || (input.isArray() && !input.isEmpty()))
                                ? "'$.input' is invalid. Please check the API reference."
                                : null;
        List<String> texts = new ArrayList<>();
        if (input.isTextual()) texts.add(input.asText());
        else for (JsonNode t : input) texts.add(t.isTextual() ? t.asText() : null);
        if (problem == null && texts.stream().anyMatch(t -> t == null || t.isEmpty()))
            problem = "'$.input' is invalid. Please check the API reference.";
        if (problem != null) {
            sendJson(ex, 400, Map.of(), OpenAiJson.errorBody(problem, "invalid_request_error", null, null));
            return;
        }
        ObjectNode out = OpenAiJson.MAPPER.createObjectNode().put("object", "list");
        ArrayNode data = out.putArray("data");
        long tokens = 0;
        for (int i = 0; i < texts.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            ArrayNode vector = item.putArray("embedding");
            for (float x : embedding.apply(texts.get(i))) vector.add(x);
            tokens += Math.max(1, texts.get(i).length() / 4);
        }
        out.put("model", body.path("model").asText());
        out.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        sendJson(ex, 200, Map.of(), out.toString());
    }

    private static float[] wordHashes(String text) {
        float[] v = new float[16];
        for (String w : text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
            if (!w.isEmpty()) v[Math.floorMod(w.hashCode(), v.length)] += 1;
        return v;
    }

    private void chat(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        if (!authorised(ex)) return;
        if (req.body().isMissingNode()) {
            sendJson(
                    ex,
                    400,
                    Map.of(),
                    OpenAiJson.errorBody(
                            "We could not parse the JSON body of your request.", "invalid_request_error", null, null));
            return;
        }
        String problem = RequestValidation.problem(req.body());
        if (problem != null) {
            sendJson(ex, 400, Map.of(), OpenAiJson.errorBody(problem, "invalid_request_error", null, null));
            return;
        }
        Reply reply = nextReply(req.body());
        if (sentError(ex, reply.delivery)) return;
        OpenAiJson.Envelope env = new OpenAiJson.Envelope(
                "chatcmpl-fake" + completionIds.incrementAndGet(),
                created(),
                req.model(),
                reply.promptTokens >= 0 ? reply.promptTokens : estimatePrompt(req.body()),
                reply.completionTokens >= 0 ? reply.completionTokens : estimateCompletion(reply));
        if (!req.stream()) {
            if (reply.streamError != null) sendJson(ex, 500, reply.delivery.headers(), reply.streamError);
            else sendJson(ex, 200, reply.delivery.headers(), OpenAiJson.completion(env, reply));
            return;
        }
        boolean includeUsage =
                req.body().path("stream_options").path("include_usage").asBoolean(false);
        List<String> frames = OpenAiJson.chunks(env, reply, includeUsage).stream()
                .map(data -> "data: " + data + "\n\n")
                .toList();
        stream(ex, reply.delivery, frames);
    }

    private boolean authorised(HttpExchange ex) throws IOException {
        String key = requiredApiKey();
        if (key == null) return true;
        String auth = ex.getRequestHeaders().getFirst("authorization");
        if (("Bearer " + key).equals(auth)) return true;
        sendJson(
                ex,
                401,
                Map.of(),
                OpenAiJson.errorBody(
                        auth == null
                                ? "You didn't provide an API key. You need to provide your API key in an "
                                        + "Authorization header "
                                        + "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
                                : "Incorrect API key provided: " + auth.substring(Math.min(auth.length(), 7)) + ".",
                        "invalid_request_error",
                        null,
                        auth == null ? null : "invalid_api_key"));
        return false;
    }

    private static long created() {
        return System.currentTimeMillis() / 1000;
    }

    private static long estimatePrompt(JsonNode body) {
        long chars = 0;
        for (JsonNode m : body.path("messages"))
            chars += m.path("content").toString().length();
        return Math.max(1, chars / 4);
    }

    private static long estimateCompletion(Reply r) {
        long chars = r.content == null ? 0 : r.content.length();
        if (r.reasoning != null) chars += r.reasoning.length();
        for (Reply.Call c : r.calls) chars += c.name().length() + c.arguments().length();
        return Math.max(1, chars / 4);
    }

    private static Reply echo(JsonNode body) {
        String text = ModelApiRequest.lastUserText(body);
        return Reply.text(text == null ? "" : text);
    }
}
