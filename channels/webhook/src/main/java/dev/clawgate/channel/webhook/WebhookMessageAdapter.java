package dev.clawgate.channel.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Posts each reply as signed JSON {@code {"chat","thread","text","in_reply_to","turn_id","kind"}} to
 * the callback URL (SPEC OUT-4). 2xx is delivered (the receipt carries the answer's {@code id} if
 * it has one); 4xx is permanent, except 408 and 429; 5xx and I/O failures are transient.
 */
final class WebhookMessageAdapter implements MessageAdapter {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI callback;
    private final WebhookSignature signature;
    private final HttpClient http;

    WebhookMessageAdapter(URI callback, WebhookSignature signature, HttpClient http) {
        this.callback = callback;
        this.signature = signature;
        this.http = http;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        byte[] body = body(message);
        HttpRequest request = HttpRequest.newBuilder(callback)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header(WebhookSignature.HEADER, signature.sign(body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        CompletableFuture<HttpResponse<String>> call = http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        HttpResponse<String> response;
        try {
            response = call.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new DeliveryException("interrupted while posting to the callback", false, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new DeliveryException("callback unreachable: " + cause.getClass().getSimpleName(), false, cause);
        } catch (CancellationException e) {
            cancel.throwIfCancelled();
            throw new DeliveryException("callback post was cancelled", false, e);
        } finally {
            release(abortOnCancel);
        }
        return receipt(response);
    }

    private static void release(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
            throw new IllegalStateException("could not release the cancel listener", e);
        }
    }

    static byte[] body(OutboundMessage m) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("chat", m.target().replyTarget());
        n.put("thread", m.target().threadId());
        n.put("text", m.text());
        n.put("in_reply_to", m.target().inReplyToMessageId());
        n.put("turn_id", m.turnId());
        n.put("kind", m.kind().name().toLowerCase(Locale.ROOT));
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static MessageReceipt receipt(HttpResponse<String> response) throws DeliveryException {
        int status = response.statusCode();
        if (status >= 200 && status < 300) return MessageReceipt.of(idOf(response.body()));
        boolean permanent = status >= 400 && status < 500 && status != 408 && status != 429;
        throw new DeliveryException("callback answered HTTP " + status, permanent, null);
    }

    /** The platform's message id from a JSON answer, or null when it gives none. */
    private static String idOf(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            JsonNode id = MAPPER.readTree(body).path("id");
            return id.isTextual() || id.isNumber() ? id.asText() : null;
        } catch (IOException notJson) {
            return null;
        }
    }
}
