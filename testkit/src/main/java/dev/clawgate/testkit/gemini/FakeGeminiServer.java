package dev.clawgate.testkit.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.internal.FakeModelServer;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A fake Gemini API ({@code generativelanguage.googleapis.com/v1beta}) on a free loopback port. It speaks the real REST
 * + SSE wire format, checks requests the way the API does, and records each one, so the production client runs
 * unchanged against it.
 *
 * <ul>
 *   <li>{@code POST /v1beta/models/{model}:generateContent}: one {@code GenerateContentResponse}.
 *   <li>{@code POST /v1beta/models/{model}:streamGenerateContent?alt=sse}: {@code data:} events, one response chunk
 *       each, no event names and no end marker (the server closes the stream); without {@code alt=sse}, a JSON array of
 *       the chunks.
 *   <li>{@code GET /v1beta/models}: the {@link #models} list.
 * </ul>
 *
 * A request needs a key in {@code x-goog-api-key} (or the {@code key} query parameter): 403 {@code PERMISSION_DENIED}
 * without one; with {@link #requireApiKey} set, another key gets the API's 400 {@code API_KEY_INVALID}.
 */
public final class FakeGeminiServer extends FakeModelServer<FakeGeminiServer, Reply, RecordedRequest> {
    private FakeGeminiServer() {
        super("Gemini", RecordedRequest::new, FakeGeminiServer::echo, List.of("gemini-2.5-flash", "gemini-2.5-pro"));
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static FakeGeminiServer start() {
        return new FakeGeminiServer().listening();
    }

    /** {@code http://127.0.0.1:PORT/v1beta}: what a client configures as its {@code api_base}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1beta";
    }

    /** Only the generateContent and streamGenerateContent requests. */
    public List<RecordedRequest> generateRequests() {
        return requests().stream().filter(RecordedRequest::isGenerate).toList();
    }

    @Override
    protected void answer(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        ex.getResponseHeaders().set("server", "scaffolding on HTTPServer2");
        if (req.isGenerate()) {
            generate(ex, req);
        } else if ("/v1beta/models".equals(req.path()) && "GET".equals(req.method())) {
            if (authorised(ex, req)) sendJson(ex, 200, Map.of(), GeminiJson.models(modelIds()));
        } else {
            sendJson(
                    ex,
                    404,
                    Map.of(),
                    GeminiJson.errorBody(
                            404,
                            "NOT_FOUND",
                            "models/" + req.model()
                                    + " is not found for API version v1beta, or is not supported for this method.",
                            null));
        }
    }

    private void generate(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        if (!authorised(ex, req)) return;
        if (req.body().isMissingNode()) {
            sendJson(
                    ex,
                    400,
                    Map.of(),
                    GeminiJson.errorBody(400, "INVALID_ARGUMENT", "Invalid JSON payload received.", null));
            return;
        }
        if (!modelIds().contains(req.model())) {
            sendJson(
                    ex,
                    404,
                    Map.of(),
                    GeminiJson.errorBody(
                            404,
                            "NOT_FOUND",
                            "models/" + req.model()
                                    + " is not found for API version v1beta, or is not supported for generateContent.",
                            null));
            return;
        }
        String problem = RequestValidation.problem(req.body());
        if (problem != null) {
            sendJson(ex, 400, Map.of(), GeminiJson.errorBody(400, "INVALID_ARGUMENT", problem, null));
            return;
        }
        Reply reply = nextReply(req.body());
        if (sentError(ex, reply.s.delivery())) return;
        GeminiJson.Envelope env = new GeminiJson.Envelope(
                GeminiJson.responseId(),
                req.model(),
                reply.s.promptTokens() >= 0
                        ? reply.s.promptTokens()
                        : Math.max(1, req.bodyText().length() / 4),
                reply.s.candidateTokens() >= 0 ? reply.s.candidateTokens() : estimateOutput(reply));
        Map<String, String> headers = reply.s.delivery().headers();
        if (!req.stream()) {
            if (reply.s.streamError() != null) {
                sendJson(ex, 500, headers, GeminiJson.errorBody(500, "INTERNAL", reply.s.streamError(), null));
            } else {
                sendJson(ex, 200, headers, GeminiJson.response(env, reply));
            }
            return;
        }
        List<String> chunks = GeminiJson.chunks(env, reply);
        if (!req.sse()) {
            sendJson(ex, 200, headers, "[" + String.join(",\n", chunks) + "]");
            return;
        }
        stream(
                ex,
                reply.s.delivery(),
                chunks.stream().map(c -> "data: " + c + "\r\n\r\n").toList());
    }

    private boolean authorised(HttpExchange ex, RecordedRequest req) throws IOException {
        String key = req.header("x-goog-api-key");
        if ((key == null || key.isBlank()) && req.query() != null) {
            for (String pair : req.query().split("&")) if (pair.startsWith("key=")) key = pair.substring(4);
        }
        if (key == null || key.isBlank()) {
            sendJson(
                    ex,
                    403,
                    Map.of(),
                    GeminiJson.errorBody(
                            403,
                            "PERMISSION_DENIED",
                            "Method doesn't allow unregistered "
                                    + "callers (callers without established identity). Please use API Key or other "
                                    + "form of API consumer "
                                    + "identity to call this API.",
                            null));
            return false;
        }
        String required = requiredApiKey();
        if (required != null && !required.equals(key)) {
            sendJson(ex, 400, Map.of(), GeminiJson.invalidKey());
            return false;
        }
        return true;
    }

    private static long estimateOutput(Reply r) {
        long chars = r.text() == null ? 0 : r.text().length();
        for (Reply.Call c : r.calls()) chars += c.name().length() + c.argsJson().length();
        return Math.max(1, chars / 4);
    }

    private static Reply echo(JsonNode body) {
        String text = RecordedRequest.lastUserText(body);
        return Reply.text(text == null || text.isEmpty() ? "(nothing to echo)" : text);
    }
}
