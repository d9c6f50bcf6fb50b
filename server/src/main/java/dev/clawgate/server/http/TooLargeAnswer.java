package dev.clawgate.server.http;

import dev.clawgate.core.channel.WebhookRoute;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SPEC OP-10: the answer to a body over {@code gateway.max_body_bytes}: a platform webhook gets its channel's own
 * ({@link WebhookRoute#oversized()}), any other route a JSON 413.
 */
final class TooLargeAnswer implements BodyGate.TooLarge {
    private static final Logger log = LoggerFactory.getLogger(TooLargeAnswer.class);

    private final Map<String, WebhookRoute> webhooks;

    TooLargeAnswer(Map<String, WebhookRoute> webhooks) {
        this.webhooks = Map.copyOf(webhooks);
    }

    /** How routes are keyed: one path may carry several methods. */
    static String key(WebhookRoute r) {
        return key(r.method(), r.path());
    }

    private static String key(String method, String path) {
        return method.toUpperCase(java.util.Locale.ROOT) + " " + path;
    }

    @Override
    public BodyGate.Answer answer(Request request, long limitBytes) {
        String path = request.getHttpURI().getPath();
        log.info(
                "{} {}: a body over gateway.max_body_bytes ({} bytes) refused unread",
                request.getMethod(),
                path,
                limitBytes);
        WebhookRoute route = webhooks.get(key(request.getMethod(), path));
        if (route == null) {
            return BodyGate.json(
                    413,
                    "invalid_request_error",
                    "the request body is over the gateway's limit of " + limitBytes
                            + " bytes (gateway.max_body_bytes)");
        }
        Map<String, String> headers = new HashMap<>();
        request.getHeaders().forEach(f -> headers.put(f.getName(), f.getValue()));
        WebhookRoute.Request headersOnly =
                new WebhookRoute.Request(headers, new byte[0], Request.getRemoteAddr(request));
        WebhookRoute.Response r = route.oversized().answer(headersOnly, limitBytes);
        return new BodyGate.Answer(r.status(), r.contentType(), r.body());
    }
}
