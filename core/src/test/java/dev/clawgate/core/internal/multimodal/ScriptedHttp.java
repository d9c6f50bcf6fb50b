package dev.clawgate.core.internal.multimodal;

import dev.clawgate.core.run.CancelToken;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link PinnedHttp} test double for core's unit tests: scripted answers by URL, and a log of every connection asked
 * for with the addresses it was pinned to, so a test sees exactly what {@link PublicWeb} let through. The real client
 * (Jetty, in the server module) is tested over loopback sockets there.
 */
public final class ScriptedHttp implements PinnedHttp {
    /** One connection asked for: the URL and the checked addresses it had to use. */
    public record Call(URI url, List<InetAddress> addresses) {}

    private final Map<String, Response> answers = new ConcurrentHashMap<>();
    private final List<Call> calls = new CopyOnWriteArrayList<>();

    public ScriptedHttp answer(String url, int status, String contentType, String body) {
        return answer(url, status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    public ScriptedHttp answer(String url, int status, String contentType, byte[] body) {
        answers.put(url, new Response(status, null, contentType, body, false));
        return this;
    }

    public ScriptedHttp redirect(String url, String location) {
        answers.put(url, new Response(302, location, "", new byte[0], false));
        return this;
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    @Override
    public Response get(URI url, List<InetAddress> addresses, Duration timeout, long maxBytes, CancelToken cancel) {
        calls.add(new Call(url, List.copyOf(addresses)));
        Response r = answers.getOrDefault(url.toString(), new Response(404, null, "text/plain", new byte[0], false));
        if (r.body().length <= maxBytes) return r;
        return new Response(r.status(), r.location(), r.contentType(), Arrays.copyOf(r.body(), (int) maxBytes), true);
    }
}
