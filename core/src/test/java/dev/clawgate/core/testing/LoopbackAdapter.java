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
 * A message adapter over HTTP to a {@link LoopbackPlatform}, declaring what a test asks: the real
 * client path (status codes, Retry-After, timeouts) turns into the real delivery exceptions.
 */
public final class LoopbackAdapter implements MessageAdapter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final URI base;
    private final Set<Capability> declared;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Duration timeout;
    private final int textLimit;
    public final List<MessageReceipt> afterSendSuccess = new CopyOnWriteArrayList<>();
    public final List<List<MessageReceipt>> afterCommit = new CopyOnWriteArrayList<>();

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
        ObjectNode body = MAPPER.createObjectNode();
        body.put("key", m.idempotencyKey());
        body.put("chat", m.target().replyTarget());
        body.put("thread", m.target().threadId());
        body.put("reply_to", m.options().replyTo() ? m.target().inReplyToMessageId() : null);
        body.put("silent", m.options().silent());
        body.put("text", m.text());
        m.media().forEach(x -> body.withArray("media").add(x.location()));
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/send")).timeout(timeout)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        HttpResponse<String> response = call(request);
        int status = response.statusCode();
        if (status == 200) {
            JsonNode id = read(response.body()).get("id");
            return MessageReceipt.of(id == null ? null : id.asText(), MessageReceipt.PartKind.TEXT, response.body())
                    .in(m.target().threadId(), m.options().replyTo() ? m.target().inReplyToMessageId() : null);
        }
        if (status == 429) {
            Duration after = response.headers().firstValue("Retry-After").map(s -> Duration.ofSeconds(Long.parseLong(s))).orElse(null);
            return rethrow(DeliveryException.rateLimited("HTTP 429", after));
        }
        boolean permanent = status >= 400 && status < 500;
        return rethrow(new DeliveryException("HTTP " + status, permanent, null));
    }

    private static MessageReceipt rethrow(DeliveryException e) throws DeliveryException {
        throw e;
    }

    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage m, CancelToken cancel) throws DeliveryException {
        URI uri = base.resolve("/lookup?key=" + URLEncoder.encode(m.idempotencyKey(), StandardCharsets.UTF_8));
        HttpResponse<String> response = call(HttpRequest.newBuilder(uri).timeout(timeout).GET().build());
        if (response.statusCode() == 404) return new Reconciliation.NotSent();
        if (response.statusCode() == 200) return new Reconciliation.Found(MessageReceipt.of(read(response.body()).path("id").asText()));
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

    private HttpResponse<String> call(HttpRequest request) throws DeliveryException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new DeliveryException("no answer within " + timeout, DeliveryException.Kind.AMBIGUOUS, null, e);
        } catch (ConnectException e) {
            throw new DeliveryException("platform unreachable", false, e);
        } catch (IOException e) {
            throw new DeliveryException("connection failed: " + e.getMessage(), DeliveryException.Kind.AMBIGUOUS, null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryException("interrupted", false, e);
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
