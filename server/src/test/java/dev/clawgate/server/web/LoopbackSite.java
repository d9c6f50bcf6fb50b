package dev.clawgate.server.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;

/**
 * A web site on a loopback address for the fetch tests: real HTTP (or HTTPS) over a socket, every request it got
 * recorded with its {@code Host} header and TLS server name, so a test sees which site a fetch reached.
 */
final class LoopbackSite implements AutoCloseable {
    /** One request this site answered. */
    record Hit(String path, String host, String serverName) {}

    private final HttpServer server;
    private final List<Hit> hits = new CopyOnWriteArrayList<>();

    private LoopbackSite(HttpServer server) {
        this.server = server;
    }

    static LoopbackSite http(InetSocketAddress at) throws IOException {
        return new LoopbackSite(HttpServer.create(at, 0));
    }

    static LoopbackSite https(InetSocketAddress at, SSLContext tls) throws IOException {
        HttpsServer s = HttpsServer.create(at, 0);
        s.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new LoopbackSite(s);
    }

    LoopbackSite page(String path, String type, String body) {
        server.createContext(path, x -> answer(x, 200, type, body, null));
        return this;
    }

    LoopbackSite redirect(String path, String location) {
        server.createContext(path, x -> answer(x, 302, "text/plain", "", location));
        return this;
    }

    LoopbackSite start() {
        server.start();
        return this;
    }

    int port() {
        return server.getAddress().getPort();
    }

    List<Hit> hits() {
        return List.copyOf(hits);
    }

    private void answer(HttpExchange x, int status, String type, String body, String location) throws IOException {
        String serverName = null;
        if (x instanceof HttpsExchange https && https.getSSLSession() instanceof ExtendedSSLSession session) {
            serverName = session.getRequestedServerNames().stream()
                    .filter(n -> n instanceof SNIHostName)
                    .map(n -> ((SNIHostName) n).getAsciiName())
                    .findFirst()
                    .orElse(null);
        }
        hits.add(new Hit(x.getRequestURI().getPath(), x.getRequestHeaders().getFirst("Host"), serverName));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", type);
        if (location != null) x.getResponseHeaders().add("Location", location);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream o = x.getResponseBody()) {
            o.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
