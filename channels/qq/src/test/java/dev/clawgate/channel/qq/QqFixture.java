package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.testkit.qq.FakeQq;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/** The account of a {@link FakeQq}, and a loopback server mounting the channel's route as the gateway does. */
final class QqFixture {
    static final String APP_ID = "102030405";
    static final String SECRET = "qq-bot-secret-for-tests";
    static final QqGateway.Timing FAST = new QqGateway.Timing(Duration.ofMillis(50), Duration.ofSeconds(5));

    private QqFixture() {}

    static QqAccount account(FakeQq qq, boolean webhook) {
        return account(qq, webhook, QqAccount.DEFAULT_TEXT, Duration.ofSeconds(5));
    }

    static QqAccount account(FakeQq qq, boolean webhook, int textLimit, Duration callTimeout) {
        return new QqAccount(
                APP_ID,
                SECRET,
                webhook,
                URI.create(qq.apiBase()),
                URI.create(qq.tokenUrl()),
                null,
                QqSettings.DEFAULT_PATH,
                false,
                false,
                textLimit,
                callTimeout);
    }

    static QqChannel channel(QqAccount account, Path dataDir) {
        return new QqChannel(account, dataDir, Clock.systemUTC(), FAST);
    }

    static QqChannel channel(QqAccount account, Path dataDir, Clock clock) {
        return new QqChannel(account, dataDir, clock, FAST);
    }

    static OutboundTarget group(String groupOpenid, String inReplyTo) {
        return new OutboundTarget("qq", InboundMessage.DEFAULT_ACCOUNT, groupOpenid, null, inReplyTo);
    }

    static OutboundTarget user(String openid, String inReplyTo) {
        return new OutboundTarget("qq", InboundMessage.DEFAULT_ACCOUNT, "user:" + openid, null, inReplyTo);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1);
    }

    static JsonNode json(String s) {
        try {
            return QqApi.JSON.readTree(s);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A clock a test moves by hand. */
    static final class MovableClock extends Clock {
        private volatile Instant now = Instant.now();

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
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
