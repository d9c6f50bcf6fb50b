package dev.clawgate.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A message adapter over HTTP to a {@link LoopbackPlatform}, declaring what a test asks: the real client path (status
 * codes, Retry-After, timeouts) turns into the real delivery exceptions. Media are loaded and uploaded ({@code POST
 * /upload}) before the message that shows them; the run's cancel token aborts both HTTP exchanges (SPEC OUT-11): an
 * abort during the upload sent nothing visible ({@link CancelledException}), one during {@code /send} may have arrived
 * (ambiguous).
 */
public final class LoopbackAdapter implements MessageAdapter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final URI base;
    private final Set<Capability> declared;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Duration timeout;
    private final int textLimit;
    public final List<MessageReceipt> afterSendSuccess = new CopyOnWriteArrayList<>();
    public final List<List<MessageReceipt>> afterCommit = new CopyOnWriteArrayList<>();
    /**
     * Runs after each payload the platform accepted, before the adapter returns: a test's moment "the first part is
     * out".
     */
    public volatile java.util.function.Consumer<OutboundMessage> onAccepted = m -> {};

    public LoopbackAdapter(LoopbackPlatform platform, Set<Capability> declared, Duration timeout, int textLimit) {
        this.base = platform.uri();
        this.declared = Set.copyOf(declared);
        this.timeout = timeout;
        this.textLimit = textLimit;
    }

    @Override
    public Set<Capability> capabilities() {
        return declared;
    }

    @Override
    public int textLimit() {
        return textLimit;
    }

    @Override
    public MessageReceipt send(OutboundMessage m, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        List<String> uploads = new java.util.ArrayList<>();
        for (var media : m.media()) uploads.add(upload(media.location(), cancel));
        ObjectNode body = MAPPER.createObjectNode();
        body.put("key", m.idempotencyKey());
        body.put("chat", m.target().replyTarget());
        body.put("thread", m.target().threadId());
        body.put("reply_to", m.options().replyTo() ? m.target().inReplyToMessageId() : null);
        body.put("silent", m.options().silent());
        body.put("text", m.text());
        m.media().forEach(x -> body.withArray("media").add(x.location()));
        uploads.forEach(u -> body.withArray("uploads").add(u));
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/send"))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
        HttpResponse<String> response = call(request, cancel, false);
        int status = response.statusCode();
        if (status == 200) {
            JsonNode id = read(response.body()).get("id");
            MessageReceipt receipt = MessageReceipt.of(
                            id == null ? null : id.asText(), MessageReceipt.PartKind.TEXT, response.body())
                    .in(
                            m.target().threadId(),
                            m.options().replyTo() ? m.target().inReplyToMessageId() : null);
            onAccepted.accept(m);
            return receipt;
        }
        if (status == 429) {
            Duration after = response.headers()
                    .firstValue("Retry-After")
                    .map(s -> Duration.ofSeconds(Long.parseLong(s)))
                    .orElse(null);
            return rethrow(DeliveryException.rateLimited("HTTP 429", after));
        }
        boolean permanent = status >= 400 && status < 500;
        return rethrow(new DeliveryException("HTTP " + status, permanent, null));
    }

    /** Loads one media file (or takes the URL) and uploads it; returns the platform's upload id. */
    private String upload(String location, CancelToken cancel) throws DeliveryException {
        byte[] bytes;
        try {
            java.nio.file.Path p = java.nio.file.Path.of(location);
            bytes = java.nio.file.Files.isRegularFile(p)
                    ? java.nio.file.Files.readAllBytes(p)
                    : location.getBytes(StandardCharsets.UTF_8);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new DeliveryException("cannot read media " + location, true, e);
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/upload"))
                .timeout(timeout)
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        HttpResponse<String> response = call(request, cancel, true);
        if (response.statusCode() != 200)
            throw new DeliveryException("upload answered HTTP " + response.statusCode(), false, null);
        return read(response.body()).path("upload").asText();
    }

    private static MessageReceipt rethrow(DeliveryException e) throws DeliveryException {
        throw e;
    }

    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage m, CancelToken cancel) throws DeliveryException {
        URI uri = base.resolve("/lookup?key=" + URLEncoder.encode(m.idempotencyKey(), StandardCharsets.UTF_8));
        HttpResponse<String> response =
                call(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(), cancel, false);
        if (response.statusCode() == 404) return new Reconciliation.NotSent();
        if (response.statusCode() == 200)
            return new Reconciliation.Found(
                    MessageReceipt.of(read(response.body()).path("id").asText()));
        return new Reconciliation.Unknown("lookup answered HTTP " + response.statusCode());
    }

    @Override
    public void afterSendSuccess(OutboundMessage message, MessageReceipt receipt) {
        afterSendSuccess.add(receipt);
    }

    @Override
    public void afterCommit(OutboundMessage message, List<MessageReceipt> receipts) {
        afterCommit.add(receipts);
    }

    /**
     * One exchange, aborted when {@code cancel} fires. {@code beforeVisible}: nothing the user sees depends on it (an
     * upload), so an abort is a clean cancel; otherwise the message may have arrived.
     */
    private HttpResponse<String> call(HttpRequest request, CancelToken cancel, boolean beforeVisible)
            throws DeliveryException {
        java.util.concurrent.CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        AutoCloseable abort = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (java.util.concurrent.CancellationException e) {
            if (beforeVisible) throw new CancelledException(cancel.reason());
            throw new DeliveryException(
                    "aborted while sending; it may have arrived", DeliveryException.Kind.AMBIGUOUS, null, e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.util.concurrent.CancellationException && cancel.isCancelled()) {
                if (beforeVisible) throw new CancelledException(cancel.reason());
                throw new DeliveryException(
                        "aborted while sending; it may have arrived", DeliveryException.Kind.AMBIGUOUS, null, cause);
            }
            if (cause instanceof HttpTimeoutException) {
                throw new DeliveryException(
                        "no answer within " + timeout, DeliveryException.Kind.AMBIGUOUS, null, cause);
            }
            if (cause instanceof ConnectException) throw new DeliveryException("platform unreachable", false, cause);
            throw new DeliveryException("connection failed: " + cause, DeliveryException.Kind.AMBIGUOUS, null, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new DeliveryException("interrupted", DeliveryException.Kind.AMBIGUOUS, null, e);
        } finally {
            try {
                abort.close();
            } catch (Exception e) {
                throw new IllegalStateException("a cancel listener handle never throws", e);
            }
        }
    }

    private static JsonNode read(String body) throws DeliveryException {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            throw new DeliveryException("unreadable answer", DeliveryException.Kind.AMBIGUOUS, null, e);
        }
    }
}
