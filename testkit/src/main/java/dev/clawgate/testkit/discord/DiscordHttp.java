package dev.clawgate.testkit.discord;

import dev.clawgate.testkit.contract.PlatformCall;
import io.javalin.Javalin;
import io.javalin.websocket.WsConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fake's one server on 127.0.0.1 and a free port: the HTTP API under {@code /api/v10}, the attachment CDN, and the
 * Gateway WebSocket at {@code /} (the URL of GET /gateway/bot) and at {@code /resume} (READY's
 * {@code resume_gateway_url}), so a test can tell which one an app used.
 */
final class DiscordHttp {
    static final String CDN_CALL = "GET cdn attachment";

    private DiscordHttp() {}

    static Javalin start(
            ReentrantLock lock,
            DiscordWorld world,
            DiscordRest rest,
            MessageRoutes messages,
            DiscordGateway gateway,
            Consumer<PlatformCall> log,
            Supplier<String> gatewayUrl) {
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.http.maxRequestSize = 32L * 1024 * 1024;
            config.jetty.modifyWebSocketServletFactory(f -> {
                f.setIdleTimeout(Duration.ofMinutes(10));
                // larger than the Gateway's 4096-byte limit, so the fake can answer it with close 4002 itself
                f.setMaxTextMessageSize(1024 * 1024);
            });
            rest.mountIdentity(config, gatewayUrl, () -> locked(lock, gateway::identifies));
            messages.mount(config, rest);
            config.routes.get("/attachments/{channel}/{id}/{filename}", ctx -> {
                byte[] bytes = locked(lock, () -> {
                    DiscordWorld.Attachment a = world.attachments.get(ctx.pathParam("id"));
                    return a == null || !a.filename().equals(ctx.pathParam("filename")) ? null : a.bytes();
                });
                String status = bytes == null ? "404" : "200";
                log.accept(new PlatformCall(CDN_CALL, "", Map.of(":path", ctx.path(), ":status", status)));
                if (bytes == null) ctx.status(404).result("Not Found");
                else ctx.contentType("application/octet-stream").result(bytes);
            });
            config.routes.ws("/", ws -> gatewaySocket(ws, "/", lock, gateway));
            config.routes.ws("/resume", ws -> gatewaySocket(ws, "/resume", lock, gateway));
        });
        app.start();
        return app;
    }

    private static void gatewaySocket(WsConfig ws, String path, ReentrantLock lock, DiscordGateway gateway) {
        ws.onConnect(ctx -> locked(lock, () -> {
            gateway.connected(ctx.sessionId(), ctx.session, path, ctx.queryString(), ctx.queryParamMap());
            return null;
        }));
        ws.onMessage(ctx -> locked(lock, () -> {
            gateway.received(ctx.sessionId(), ctx.message());
            return null;
        }));
        ws.onClose(ctx -> locked(lock, () -> {
            gateway.closed(ctx.sessionId(), ctx.status());
            return null;
        }));
        ws.onError(ctx -> locked(lock, () -> {
            gateway.closed(ctx.sessionId(), 1006);
            return null;
        }));
    }

    static <T> T locked(ReentrantLock lock, Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
