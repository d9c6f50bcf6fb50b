package dev.clawgate.server.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Who may call the gateway's own routes (SPEC OP-3): everything but {@code /healthz} and the platform webhooks, which
 * carry their own secret. A browser page of another site may not call them (its {@code Origin} must be this host),
 * without a token the {@code Host} must be a loopback name (so a DNS name rebound to 127.0.0.1 cannot reach a
 * loopback-only gateway), and a request with a body must say {@code application/json}: a page can send
 * {@code text/plain} or a form to any address without asking first, JSON only after a CORS preflight this server never
 * grants.
 */
final class CallerCheck {
    private CallerCheck() {}

    /** Why the caller is refused, as status and message; empty when it may go on. */
    record Refusal(int status, String type, String message) {}

    static final Refusal NO_TOKEN = new Refusal(401, "unauthorized", "missing or wrong gateway token");

    static Optional<Refusal> origin(Context ctx, boolean tokenSet) {
        String host = ctx.header("Host");
        String origin = ctx.header("Origin");
        if (origin != null && !sameHost(origin, host)) {
            return Optional.of(new Refusal(403, "forbidden", "cross-origin requests are refused"));
        }
        if (!tokenSet && !loopbackHost(host)) {
            return Optional.of(new Refusal(
                    403,
                    "forbidden",
                    "without gateway.auth_token the gateway answers loopback "
                            + "host names only (localhost, 127.0.0.1, [::1])"));
        }
        return Optional.empty();
    }

    /** A request that may change something must carry JSON. */
    static Optional<Refusal> contentType(Context ctx) {
        HandlerType m = ctx.method();
        if (m == HandlerType.GET || m == HandlerType.HEAD || m == HandlerType.OPTIONS) return Optional.empty();
        String type = ctx.header("Content-Type");
        String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (media.equals("application/json")) return Optional.empty();
        return Optional.of(new Refusal(
                415,
                "invalid_request_error",
                "send the body as application/json" + (media.isEmpty() ? "" : ", not " + shorten(media))));
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }

    /** Whether {@code origin} (scheme://host[:port]) names the same host and port as the Host header. */
    static boolean sameHost(String origin, String host) {
        try {
            URI o = new URI(origin);
            if (o.getHost() == null || host == null) return false;
            int defaultPort = "https".equals(o.getScheme()) ? 443 : 80;
            String expected = o.getHost() + ":" + (o.getPort() != -1 ? o.getPort() : defaultPort);
            String given = host.contains(":") && !host.endsWith("]") ? host : host + ":" + defaultPort;
            return expected.equalsIgnoreCase(given);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** {@code localhost} or a loopback address literal, with or without a port; a name is never resolved. */
    static boolean loopbackHost(String hostHeader) {
        if (hostHeader == null) return false;
        String host = hostHeader;
        if (host.startsWith("[")) host = host.substring(1, Math.max(1, host.indexOf(']')));
        else if (host.indexOf(':') >= 0) host = host.substring(0, host.indexOf(':'));
        if (host.equalsIgnoreCase("localhost")) return true;
        // literals only: a name is not resolved, or a rebound name would pass
        if (!host.matches("[0-9.]+") && !(host.indexOf(':') >= 0 && host.matches("[0-9a-fA-F:.]+"))) return false;
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }
}
