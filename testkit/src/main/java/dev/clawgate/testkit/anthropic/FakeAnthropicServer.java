package dev.clawgate.testkit.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.internal.FakeModelServer;
import dev.clawgate.testkit.internal.ModelApiRequest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake Anthropic Messages API on a free loopback port. It speaks the real HTTP + SSE wire format ({@code event:}
 * names and {@code data:} JSON), checks requests the way the API does, and records each one, so the production client
 * runs unchanged against it.
 *
 * <p>Each {@code POST /v1/messages} takes the next {@link #enqueue enqueued} reply; when the queue is empty it asks the
 * {@link #respondWith responder}, then the {@link #defaultReply default reply} (out of the box: echo the last user
 * message's text). A request needs an {@code x-api-key} ({@code 401 authentication_error} otherwise): with
 * {@link #requireApiKey} null, the default, any non-empty key passes.
 */
public final class FakeAnthropicServer extends FakeModelServer<FakeAnthropicServer, Reply, RecordedRequest> {
    static final String MESSAGES_PATH = "/v1/messages";
    static final String MODELS_PATH = "/v1/models";

    private final AtomicLong messageIds = new AtomicLong();

    private FakeAnthropicServer() {
        super(
                "Anthropic",
                RecordedRequest::new,
                FakeAnthropicServer::echo,
                List.of("claude-sonnet-4-5", "claude-haiku-4-5"));
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static FakeAnthropicServer start() {
        return new FakeAnthropicServer().listening();
    }

    /**
     * {@code http://127.0.0.1:PORT}: what a client configures as its base URL (like {@code https://api.anthropic.com}).
     */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Only the {@code POST /v1/messages} requests. */
    public List<RecordedRequest> messageRequests() {
        return requests().stream().filter(RecordedRequest::isMessages).toList();
    }

    @Override
    protected void answer(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        ex.getResponseHeaders().set("request-id", AnthropicJson.requestId());
        String path = ex.getRequestURI().getPath();
        if (MESSAGES_PATH.equals(path) && "POST".equals(ex.getRequestMethod())) {
            messages(ex, req);
        } else if (MODELS_PATH.equals(path) && "GET".equals(ex.getRequestMethod())) {
            if (authorised(ex)) sendJson(ex, 200, Map.of(), AnthropicJson.models(modelIds()));
        } else {
            sendJson(ex, 404, Map.of(), AnthropicJson.errorBody("not_found_error", "Not Found"));
        }
    }

    private void messages(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        if (!authorised(ex)) return;
        if (req.header("anthropic-version") == null) {
            sendJson(
                    ex,
                    400,
                    Map.of(),
                    AnthropicJson.errorBody("invalid_request_error", "anthropic-version: header is required"));
            return;
        }
        if (req.body().isMissingNode()) {
            sendJson(
                    ex,
                    400,
                    Map.of(),
                    AnthropicJson.errorBody(
                            "invalid_request_error",
                            "There was an issue with the " + "format of your request: the body is not valid JSON"));
            return;
        }
        String problem = MessagesValidation.problem(req.body());
        if (problem != null) {
            sendJson(ex, 400, Map.of(), AnthropicJson.errorBody("invalid_request_error", problem));
            return;
        }
        Reply reply = nextReply(req.body());
        if (sentError(ex, reply.s.delivery())) return;
        AnthropicJson.Envelope env = new AnthropicJson.Envelope(
                "msg_fake" + messageIds.incrementAndGet(),
                req.model(),
                reply.s.inputTokens() >= 0 ? reply.s.inputTokens() : estimateInput(req.body()),
                reply.s.outputTokens() >= 0 ? reply.s.outputTokens() : estimateOutput(reply));
        Map<String, String> headers = reply.s.delivery().headers();
        if (!req.stream()) {
            if (reply.s.streamErrorType() != null) {
                int status = reply.s.streamErrorType().equals("overloaded_error") ? 529 : 500;
                sendJson(
                        ex,
                        status,
                        headers,
                        AnthropicJson.errorBody(reply.s.streamErrorType(), reply.s.streamErrorMessage()));
            } else {
                sendJson(ex, 200, headers, AnthropicJson.message(env, reply));
            }
            return;
        }
        List<String> frames = AnthropicJson.events(env, reply).stream()
                .map(e -> "event: " + e.type() + "\ndata: " + e.data() + "\n\n")
                .toList();
        stream(ex, reply.s.delivery(), frames);
    }

    private boolean authorised(HttpExchange ex) throws IOException {
        String key = ex.getRequestHeaders().getFirst("x-api-key");
        String required = requiredApiKey();
        if (key == null || key.isBlank()) {
            sendJson(
                    ex, 401, Map.of(), AnthropicJson.errorBody("authentication_error", "x-api-key header is required"));
            return false;
        }
        if (required != null && !required.equals(key)) {
            sendJson(ex, 401, Map.of(), AnthropicJson.errorBody("authentication_error", "invalid x-api-key"));
            return false;
        }
        return true;
    }

    private static long estimateInput(JsonNode body) {
        long chars = body.path("system").toString().length()
                + body.path("messages").toString().length();
        return Math.max(1, chars / 4);
    }

    private static long estimateOutput(Reply r) {
        long chars = r.text() == null ? 0 : r.text().length();
        for (Reply.ToolUse u : r.toolUses())
            chars += u.name().length() + u.inputJson().length();
        return Math.max(1, chars / 4);
    }

    private static Reply echo(JsonNode body) {
        String text = ModelApiRequest.lastUserText(body);
        return Reply.text(text == null || text.isEmpty() ? "(nothing to echo)" : text);
    }
}
