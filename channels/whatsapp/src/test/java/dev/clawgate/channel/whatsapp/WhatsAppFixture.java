package dev.clawgate.channel.whatsapp;

import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The account of a {@link FakeWhatsAppCloud}, and a loopback server mounting the channel's route as the gateway. */
final class WhatsAppFixture {
    static final String TOKEN = "EAAGtest-token";
    static final String SECRET = "app-secret-for-tests";
    static final String VERIFY = "verify-me";

    private WhatsAppFixture() {}

    static FakeWhatsAppCloud fake() {
        return FakeWhatsAppCloud.start(TOKEN, SECRET).retryBackoff(Duration.ofMillis(20), Duration.ofMillis(100), 50);
    }

    static WhatsAppAccount account(FakeWhatsAppCloud wa, boolean reactions) {
        return new WhatsAppAccount(
                TOKEN,
                wa.phoneNumberId(),
                SECRET,
                VERIFY,
                URI.create(wa.apiBase()),
                WhatsAppSettings.DEFAULT_PATH,
                WhatsAppAccount.MAX_TEXT,
                reactions,
                Duration.ofSeconds(5));
    }

    /** Reactions and typing run on the caller's thread; rate limits wait 20 ms, doubling, inline up to 1 s. */
    static WhatsAppChannel channel(WhatsAppAccount account, Path dataDir) {
        return new WhatsAppChannel(
                account, dataDir, Clock.systemUTC(), Runnable::run, Duration.ofMillis(20), Duration.ofSeconds(1));
    }

    static OutboundTarget dm(String waId, String inReplyTo) {
        return new OutboundTarget("whatsapp", InboundMessage.DEFAULT_ACCOUNT, waId, null, inReplyTo);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1);
    }

    /** The JDK's HTTP server on a free loopback port, serving {@code route} as the gateway's server does. */
    static final class RouteServer implements AutoCloseable {
        private final HttpServer server;
        private final String path;

        RouteServer(WebhookRoute route) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            server.createContext(route.path(), exchange -> {
                Map<String, String> headers = new LinkedHashMap<>();
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, String.join(",", v)));
                byte[] body = exchange.getRequestBody().readAllBytes();
                WebhookRoute.Response r = route.handler().handle(new WebhookRoute.Request(headers, body, "127.0.0.1"));
                exchange.getResponseHeaders().set("Content-Type", r.contentType());
                exchange.sendResponseHeaders(r.status(), r.body().length == 0 ? -1 : r.body().length);
                if (r.body().length > 0) exchange.getResponseBody().write(r.body());
                exchange.close();
            });
            server.start();
            this.path = route.path();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
