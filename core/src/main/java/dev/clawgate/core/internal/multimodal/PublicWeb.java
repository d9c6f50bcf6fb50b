package dev.clawgate.core.internal.multimodal;

import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * GETs from public addresses only (SPEC AG-4 images, AG-5 {@code web_fetch}). For every hop: only {@code http} and
 * {@code https}; a host written as a number in any form but plain dotted decimal ({@code 2130706433},
 * {@code 0177.0.0.1}, {@code 0x7f.1}, {@code 127.1}) is refused, since URL parsers read those differently; the host is
 * resolved once and every answer must be public ({@link PublicAddresses}); the connection then goes to exactly those
 * addresses ({@link PinnedHttp}), so a second DNS answer (rebinding) is never used. Redirects are followed here, at
 * most {@value #MAX_REDIRECTS}, each hop checked the same way.
 */
public final class PublicWeb {
    public static final int MAX_REDIRECTS = 3;
    /** WHATWG URL: a host whose last label is a number is an IPv4 address, whatever the other labels look like. */
    private static final Pattern ENDS_IN_NUMBER = Pattern.compile("(?i)(^|.*\\.)([0-9]+|0x[0-9a-f]*)\\.?$");

    private static final Pattern DOTTED_DECIMAL = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");

    private final PinnedHttp http;
    private final HostResolver resolver;
    private final Predicate<InetAddress> allowed;

    /** @param allowed which addresses may be connected to: {@link PublicAddresses#isPublic} but in tests */
    public PublicWeb(PinnedHttp http, HostResolver resolver, Predicate<InetAddress> allowed) {
        this.http = http;
        this.resolver = resolver;
        this.allowed = allowed;
    }

    /** Public addresses by the system's resolver, through {@code http}. */
    public static PublicWeb of(PinnedHttp http) {
        return new PublicWeb(http, HostResolver.SYSTEM, PublicAddresses::isPublic);
    }

    /** For a process without an HTTP client: every fetch fails, saying so. */
    public static PublicWeb unavailable() {
        return of(PinnedHttp.NONE);
    }

    /** The final answer and the URL it came from, after any redirects. */
    public record Page(URI url, PinnedHttp.Response response) {}

    /**
     * GETs {@code url}, following redirects; any non-redirect answer is returned, whatever its status.
     *
     * @throws IOException a refused address (the message says why), or a failed connection
     */
    public Page get(URI url, Duration timeout, long maxBytes, CancelToken cancel)
            throws IOException, InterruptedException {
        URI current = url;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            cancel.throwIfCancelled();
            List<InetAddress> addresses = check(current);
            PinnedHttp.Response r = http.get(current, addresses, timeout, maxBytes, cancel);
            if (r.status() >= 300 && r.status() < 400 && r.location() != null) {
                try {
                    current = current.resolve(r.location().strip());
                } catch (IllegalArgumentException e) {
                    throw new IOException("a redirect to an invalid address: " + r.location());
                }
                continue;
            }
            return new Page(current, r);
        }
        throw new IOException("more than " + MAX_REDIRECTS + " redirects");
    }

    /** The host part of an authority {@code user@host:port}, as written; "" when there is none. */
    private static String authorityHost(String authority) {
        if (authority == null) return "";
        String a = authority.substring(authority.lastIndexOf('@') + 1);
        if (a.startsWith("[")) return a.contains("]") ? a.substring(0, a.indexOf(']') + 1) : a;
        return a.contains(":") ? a.substring(0, a.indexOf(':')) : a;
    }

    /** The addresses {@code url} may be fetched from: every answer of one resolution, all allowed. */
    List<InetAddress> check(URI url) throws IOException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IOException("only http and https addresses are fetched");
        }
        String host = url.getHost();
        String written = host != null ? host : authorityHost(url.getRawAuthority());
        if (written.isEmpty()) throw new IOException("the address has no host");
        boolean numeric =
                !written.startsWith("[") && ENDS_IN_NUMBER.matcher(written).matches();
        if (numeric && !DOTTED_DECIMAL.matcher(written).matches()) {
            throw new IOException("refused: " + written + " is a numeric address in an ambiguous form; write it as four"
                    + " decimal numbers");
        }
        // java.net.URI leaves the host out when it is no valid name or address (a last label starting with a digit)
        if (host == null || host.isEmpty()) throw new IOException("the address has no valid host: " + written);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        List<InetAddress> addresses;
        try {
            addresses = List.copyOf(resolver.resolve(host));
        } catch (UnknownHostException e) {
            throw new IOException("unknown host " + host);
        }
        if (addresses.isEmpty() || !addresses.stream().allMatch(allowed)) {
            throw new IOException("refused: " + host + " is not a public address");
        }
        return addresses;
    }
}
