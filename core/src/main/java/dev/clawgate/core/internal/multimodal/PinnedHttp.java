package dev.clawgate.core.internal.multimodal;

import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * One HTTP GET that connects only to addresses it is given (SPEC AG-4, AG-5), implemented outside core (the server's is
 * on Jetty's client): {@link PublicWeb} resolves the host once, checks every answer, and hands exactly those addresses
 * here, so the connection goes where the check looked, never to a second DNS answer. The request still names the URL's
 * host ({@code Host} header, TLS server name) and TLS still checks the certificate against that host. Redirects are not
 * followed: the caller checks and follows them.
 */
public interface PinnedHttp {
    /**
     * @param addresses the checked addresses of {@code url}'s host; the connection goes to one of them
     * @param maxBytes the most body bytes read; the rest is not read and {@link Response#cut} is set
     */
    Response get(URI url, List<InetAddress> addresses, Duration timeout, long maxBytes, CancelToken cancel)
            throws IOException, InterruptedException;

    /**
     * @param location the {@code Location} header, or null
     * @param contentType the {@code Content-Type} header, or ""
     * @param cut whether the body went on past {@code maxBytes}
     */
    record Response(int status, String location, String contentType, byte[] body, boolean cut) {}

    /** For a process without an HTTP client: every fetch fails, saying so. */
    PinnedHttp NONE = (url, addresses, timeout, maxBytes, cancel) -> {
        throw new IOException("no HTTP client for remote fetches is set up in this process");
    };
}
