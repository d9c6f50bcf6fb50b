package dev.clawgate.channel.slack;

import com.sun.net.httpserver.HttpServer;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accounts on a {@link FakeSlack}, and a loopback HTTP server that mounts a channel's webhook route as the gateway
 * would.
 */
final class SlackFixture {
    private SlackFixture() {}

    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(300);
    /** Where the tests' channels keep downloaded files: one folder for this JVM, removed when it exits. */
    static final java.nio.file.Path MEDIA = mediaDir();

    private static java.nio.file.Path mediaDir() {
        try {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("slack-media");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static SlackAccount account(FakeSlack slack, SlackAccount.Mode mode, boolean reactions, Duration callTimeout) {
        return account(slack, mode, reactions, callTimeout, false);
    }

    static SlackAccount account(
            FakeSlack slack, SlackAccount.Mode mode, boolean reactions, Duration callTimeout, boolean preview) {
        return new SlackAccount(
                InboundMessage.DEFAULT_ACCOUNT,
                slack.botToken(),
                slack.signingSecret(),
                slack.appToken(),
                mode,
                URI.create(slack.apiBase()),
                SlackSettings.DEFAULT_PATH,
                SlackAccount.MAX_TEXT,
                reactions,
                callTimeout,
                preview);
    }

    /** A channel whose reaction calls run on the caller's thread and whose Socket Mode reconnects after 50 ms. */
    static dev.clawgate.channel.slack.SlackChannel channel(SlackAccount account) {
        return channel(account, dev.clawgate.core.run.Scheduler.daemon("slack-test-preview"));
    }

    /** As {@link #channel(SlackAccount)}, previews timed by {@code clock} and run on the caller's thread. */
    static dev.clawgate.channel.slack.SlackChannel channel(
            SlackAccount account, dev.clawgate.core.run.Scheduler clock) {
        return new dev.clawgate.channel.slack.SlackChannel(
                List.of(account),
                MEDIA,
                Clock.systemUTC(),
                Runnable::run,
                Duration.ofSeconds(2),
                Duration.ofMillis(50),
                clock,
                PREVIEW_INTERVAL);
    }

    static OutboundTarget target(SlackChannel c, String thread, String inReplyToTs) {
        return new OutboundTarget(
                "slack",
                InboundMessage.DEFAULT_ACCOUNT,
                c.id(),
                thread,
                inReplyToTs == null ? null : c.id() + ":" + inReplyToTs);
    }

    static OutboundMessage finalReply(OutboundTarget target, String text) {
        return new OutboundMessage(target, text, OutboundMessage.Kind.FINAL, 1);
    }

    /** The JDK's HTTP server on a free loopback port, serving {@code route} as the gateway's server does. */
    static final class RouteServer implements AutoCloseable {
        private final HttpServer server;

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

        private final String path;

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
