package dev.clawgate.server.http;

import dev.clawgate.core.config.RequestBounds;
import io.javalin.config.JavalinConfig;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The server's one listening socket with the bounds of SPEC OP-10: at most {@code gateway.max_connections} connections
 * (further ones wait in the accept queue until one closes), {@code gateway.write_timeout} for a stalled write (a caller
 * that does not read), the head and body deadlines of {@link HeaderDeadline} and {@link BodyGate}, and the body limit.
 */
final class Listener {
    private Listener() {}

    static void bound(
            JavalinConfig config,
            HttpServer.HostPort at,
            RequestBounds bounds,
            ScheduledExecutorService timer,
            BodyGate.TooLarge tooLarge) {
        HeaderDeadline heads = new HeaderDeadline(bounds.readTimeout(), timer);
        config.http.maxRequestSize = bounds.maxBodyBytes();
        config.jetty.addConnector((server, http) -> {
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(at.host());
            connector.setPort(at.port());
            connector.setIdleTimeout(bounds.writeTimeout().toMillis());
            connector.addEventListener(heads);
            server.addBean(new NetworkConnectionLimit(bounds.maxConnections(), connector));
            return connector;
        });
        config.jetty.modifyServer(server -> server.insertHandler(
                new BodyGate(bounds.maxBodyBytes(), bounds.readTimeout(), tooLarge, heads, timer)));
    }
}
