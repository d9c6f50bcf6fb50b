package dev.clawgate.channel.lark;

import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.testkit.lark.FakeLark;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The account of a {@link FakeLark}, and a loopback server mounting the channel's route as the gateway does. */
final class LarkFixture {
    static final String APP_ID = "cli_a1b2c3d4e5f6";
    static final String SECRET = "app-secret-for-tests";
    static final String VERIFY = "verification-token";
    static final String ENCRYPT = "encrypt-key-for-tests";

    private LarkFixture() {}

    static FakeLark fake(boolean encrypted) {
        return FakeLark.start(APP_ID, SECRET, VERIFY, encrypted ? ENCRYPT : null);
    }

    static LarkAccount account(FakeLark lark, boolean encrypted, boolean reactions) {
        return account(lark, encrypted, reactions, false, Duration.ofSeconds(5));
    }

    static LarkAccount account(
            FakeLark lark, boolean encrypted, boolean reactions, boolean preview, Duration callTimeout) {
        return new LarkAccount(
                APP_ID,
                SECRET,
                "webhook",
                URI.create(lark.apiBase()),
                LarkSettings.DEFAULT_PATH,
                VERIFY,
                encrypted ? ENCRYPT : null,
                preview,
                reactions,
                LarkAccount.DEFAULT_TEXT,
                callTimeout);
    }

    /** Reactions run on the caller's thread. */
    static LarkChannel channel(LarkAccount account, Path dataDir) {
        return new LarkChannel(account, dataDir, Clock.systemUTC(), Runnable::run);
    }

    static OutboundTarget chat(String chatId, String inReplyTo) {
        return new OutboundTarget("lark", InboundMessage.DEFAULT_ACCOUNT, chatId, null, inReplyTo);
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
