package dev.clawgate.channel.webhook;

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
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Posts each reply as signed JSON {@code {"chat","thread","text","in_reply_to","turn_id","kind", "idempotency_key"}},
 * plus {@code "payload"} (a JSON object) when the message carries a platform-native payload, to the callback URL (SPEC
 * OUT-4). 2xx is delivered (the receipt carries the answer's {@code id}); 429 and 5xx are transient (429's
 * {@code Retry-After} is kept), so is a failure to connect; other 4xx are permanent; a timeout or a broken connection
 * once the request was on its way is ambiguous (SPEC OUT-7). With {@code reconcile = true} it can ask the platform,
 * {@code GET callback?idempotency_key=K}, whether such a send arrived.
 */
final class WebhookMessageAdapter implements MessageAdapter {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    static final String LOOKUP_PARAM = "idempotency_key";

    private final URI callback;
    private final WebhookSignature signature;
    private final HttpClient http;
    private final boolean reconcile;
    private final Duration requestTimeout;
    private final Clock clock;
    private final int textLimit;
    private final Set<Capability> capabilities;

    WebhookMessageAdapter(
            URI callback,
            WebhookSignature signature,
            HttpClient http,
            boolean reconcile,
            Duration requestTimeout,
            Clock clock,
            int textLimit) {
        this.textLimit = textLimit;
        this.callback = callback;
        this.signature = signature;
        this.http = http;
        this.reconcile = reconcile;
        this.requestTimeout = requestTimeout;
        this.clock = clock;
        // no media, no silent or native quote, no batch: the wire format has no field for them
        Set<Capability> caps = EnumSet.of(
                Capability.TEXT,
                Capability.PAYLOAD,
                Capability.REPLY_TO,
                Capability.THREAD,
                Capability.MESSAGE_SENDING_HOOKS);
        if (reconcile) caps.add(Capability.RECONCILE_UNKNOWN_SEND);
        this.capabilities = Set.copyOf(caps);
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /** SPEC OUT-1: {@code channels.webhook.text_limit}, 4000 by default. */
    @Override
    public int textLimit() {
        return textLimit;
    }

    @Override
    public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        byte[] body = body(message);
        HttpRequest request = HttpRequest.newBuilder(callback)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header(WebhookSignature.HEADER, signature.sign(body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<String> response = exchange(request, cancel, "posting to the callback");
        int status = response.statusCode();
        if (status / 100 == 2) return receipt(idOf(response.body()), message);
        // 408: the platform never read the whole request; 3xx: redirects are not followed, an operator may fix the URL
        boolean transientStatus = status == 429 || status == 408 || status / 100 == 5 || status / 100 == 3;
        throw new DeliveryException(
                "callback answered HTTP " + status,
                transientStatus ? DeliveryException.Kind.TRANSIENT : DeliveryException.Kind.PERMANENT,
                transientStatus ? retryAfter(response) : null,
                null);
    }

    /**
     * Looks {@code message} up by its idempotency key (SPEC OUT-7): 200 with an id is found, 404 is proof it never
     * arrived, anything else leaves it unknown. Only with {@code reconcile = true}.
     */
    @Override
    public Reconciliation reconcileUnknownSend(OutboundMessage message, CancelToken cancel) throws DeliveryException {
        if (!reconcile) return MessageAdapter.super.reconcileUnknownSend(message, cancel);
        cancel.throwIfCancelled();
        String query = LOOKUP_PARAM + "=" + URLEncoder.encode(message.idempotencyKey(), StandardCharsets.UTF_8);
        String fullQuery = callback.getRawQuery() == null ? query : callback.getRawQuery() + "&" + query;
        HttpRequest request = HttpRequest.newBuilder(withQuery(callback, fullQuery))
                .timeout(requestTimeout)
                .header(WebhookSignature.HEADER, signature.sign(fullQuery.getBytes(StandardCharsets.UTF_8)))
                .GET()
                .build();
        HttpResponse<String> response = exchange(request, cancel, "looking the reply up");
        int status = response.statusCode();
        if (status == 404) return new Reconciliation.NotSent();
        if (status == 200) {
            String id = idOf(response.body());
            return id == null
                    ? new Reconciliation.Unknown("lookup answered 200 without an id")
                    : new Reconciliation.Found(receipt(id, message));
        }
        return new Reconciliation.Unknown("lookup answered HTTP " + status);
    }

    private HttpResponse<String> exchange(HttpRequest request, CancelToken cancel, String doing)
            throws DeliveryException {
        CompletableFuture<HttpResponse<String>> call =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        AutoCloseable abortOnCancel = cancel.onCancel(() -> call.cancel(true));
        try {
            return call.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new DeliveryException(
                    "interrupted while " + doing + "; it may have arrived", DeliveryException.Kind.AMBIGUOUS, null, e);
        } catch (ExecutionException e) {
            throw failure(e.getCause() == null ? e : e.getCause(), doing);
        } catch (CancellationException e) {
            cancel.throwIfCancelled();
            throw new DeliveryException(
                    "cancelled while " + doing + "; it may have arrived", DeliveryException.Kind.AMBIGUOUS, null, e);
        } finally {
            release(abortOnCancel);
        }
    }

    /**
     * Nothing left the client when the connection never opened; after that, the platform may have it. Never names the
     * URL.
     */
    static DeliveryException failure(Throwable cause, String doing) {
        if (cause instanceof HttpConnectTimeoutException
                || cause instanceof ConnectException
                || cause instanceof UnresolvedAddressException
                || cause.getCause() instanceof UnresolvedAddressException) {
            return new DeliveryException(
                    "callback unreachable: " + cause.getClass().getSimpleName(),
                    DeliveryException.Kind.TRANSIENT,
                    null,
                    cause);
        }
        if (cause instanceof HttpTimeoutException) {
            return new DeliveryException(
                    "callback did not answer in time while " + doing + "; it may have arrived",
                    DeliveryException.Kind.AMBIGUOUS,
                    null,
                    cause);
        }
        if (cause instanceof IOException) {
            return new DeliveryException(
                    "callback connection failed while " + doing + " ("
                            + cause.getClass().getSimpleName() + "); it may have arrived",
                    DeliveryException.Kind.AMBIGUOUS,
                    null,
                    cause);
        }
        return new DeliveryException(
                "callback request failed: " + cause.getClass().getSimpleName(),
                DeliveryException.Kind.AMBIGUOUS,
                null,
                cause);
    }

    private static void release(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            // CancelToken's handles only remove a listener and never throw: one that does is a bug to surface
            throw new IllegalStateException("could not release the cancel listener", e);
        }
    }

    static byte[] body(OutboundMessage m) throws DeliveryException {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("chat", m.target().replyTarget());
        n.put("thread", m.target().threadId());
        n.put("text", m.text());
        n.put("in_reply_to", m.options().replyTo() ? m.target().inReplyToMessageId() : null);
        n.put("turn_id", m.turnId());
        n.put("kind", m.kind().name().toLowerCase(Locale.ROOT));
        n.put(LOOKUP_PARAM, m.idempotencyKey());
        if (m.payload() != null) n.set("payload", payload(m.payload()));
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The platform-native payload as the JSON object it must be; anything else will never go, so it fails at once. */
    private static JsonNode payload(String text) throws DeliveryException {
        try {
            JsonNode p = MAPPER.readTree(text);
            if (p != null && p.isObject()) return p;
        } catch (IOException unreadable) {
            // reported below, without echoing the payload
        }
        throw new DeliveryException(
                "the message's payload is not a JSON object", DeliveryException.Kind.PERMANENT, null, null);
    }

    private static MessageReceipt receipt(String id, OutboundMessage m) {
        return MessageReceipt.of(id, MessageReceipt.PartKind.TEXT, null)
                .in(m.target().threadId(), m.options().replyTo() ? m.target().inReplyToMessageId() : null);
    }

    /** {@code Retry-After} in seconds or as an HTTP date; null when absent or unreadable. */
    private Duration retryAfter(HttpResponse<String> response) {
        String v =
                response.headers().firstValue("Retry-After").map(String::strip).orElse(null);
        if (v == null || v.isEmpty()) return null;
        if (v.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException tooLarge) {
                return null;
            }
        }
        try {
            Duration d = Duration.between(
                    clock.instant(),
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }

    private static URI withQuery(URI base, String rawQuery) {
        String s = base.toString();
        int q = s.indexOf('?');
        int hash = s.indexOf('#');
        String head = q >= 0 ? s.substring(0, q) : hash >= 0 ? s.substring(0, hash) : s;
        return URI.create(head + "?" + rawQuery);
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
