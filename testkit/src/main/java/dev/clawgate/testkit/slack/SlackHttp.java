package dev.clawgate.testkit.slack;

import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.internal.Multipart;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fake's one HTTP server, on 127.0.0.1 and a free port: the Web API, the upload URLs, the private file URLs, and
 * the Socket Mode WebSocket at {@code /link}.
 */
final class SlackHttp {
    static final String UPLOAD_CALL = "POST upload_url";
    static final String DOWNLOAD_CALL = "GET url_private";
    private static final long MAX_BODY = 64L * 1024 * 1024;
    private static final String SIGN_IN_PAGE = "<!DOCTYPE html><html><head><title>Slack</title></head>"
            + "<body><h1>Sign in to your workspace</h1></body></html>";

    private SlackHttp() {}

    static Javalin start(
            SlackWebApi api,
            SlackFiles files,
            SocketModeServer socket,
            ReentrantLock lock,
            Consumer<PlatformCall> log,
            String botToken,
            Supplier<String> apiBase,
            Supplier<String> wsBase) {
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.http.maxRequestSize = MAX_BODY;
            config.jetty.modifyWebSocketServletFactory(f -> {
                f.setIdleTimeout(Duration.ofMinutes(10));
                f.setMaxTextMessageSize(1024 * 1024);
            });
            config.routes.get("/api/{method}", ctx -> api.handle(ctx, root(apiBase), wsBase.get()));
            config.routes.post("/api/{method}", ctx -> api.handle(ctx, root(apiBase), wsBase.get()));
            config.routes.post("/upload/v1/{ticket}", ctx -> upload(ctx, files, lock, log));
            config.routes.get("/files-pri/{key}/{name}", ctx -> download(ctx, files, lock, log, botToken));
            config.routes.get("/files-pri/{key}/download/{name}", ctx -> download(ctx, files, lock, log, botToken));
            config.routes.get(
                    "/signin",
                    ctx -> ctx.contentType("text/html; charset=utf-8").result(SIGN_IN_PAGE));
            config.routes.wsBeforeUpgrade("/link", ctx -> {
                // each URL from apps.connections.open opens one connection
                if (!socket.spend(ctx.queryParam("ticket"))) throw new HttpResponseException(401, "invalid ticket");
            });
            config.routes.ws("/link", ws -> {
                ws.onConnect(ctx -> socket.connected(ctx.sessionId(), ctx.session));
                ws.onMessage(ctx -> socket.received(ctx.message()));
                ws.onClose(ctx -> socket.closed(ctx.sessionId()));
                ws.onError(ctx -> socket.closed(ctx.sessionId()));
            });
        });
        app.start();
        return app;
    }

    private static String root(Supplier<String> apiBase) {
        String base = apiBase.get();
        return base.substring(0, base.length() - "/api".length());
    }

    /** An upload URL takes the bytes raw or as a multipart form, answering 200 (files.getUploadURLExternal, step 2). */
    private static void upload(Context ctx, SlackFiles files, ReentrantLock lock, Consumer<PlatformCall> log) {
        byte[] body = ctx.bodyAsBytes();
        String fileId;
        int status;
        lock.lock();
        try {
            fileId = files.receive(ctx.pathParam("ticket"), ctx.contentType(), body);
            status = fileId == null ? 404 : 200;
        } catch (Multipart.Malformed e) {
            fileId = null;
            status = 400;
        } finally {
            lock.unlock();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":status", Integer.toString(status));
        if (ctx.contentType() != null) headers.put("content-type", ctx.contentType());
        String logged = SlackWorld.JSON
                .createObjectNode()
                .put("file_id", fileId)
                .put("size", body.length)
                .toString();
        log.accept(new PlatformCall(UPLOAD_CALL, logged, headers));
        ctx.status(status).contentType("text/plain").result(status == 200 ? "OK - " + body.length : "upload refused");
    }

    /**
     * A private file URL needs {@code Authorization: Bearer <bot token>}. Without it Slack does not serve the file: its
     * web front sends the client to a sign-in page (an HTML answer, not the bytes), which is what a client that forgot
     * the token gets here too.
     */
    private static void download(
            Context ctx, SlackFiles files, ReentrantLock lock, Consumer<PlatformCall> log, String botToken) {
        String auth = ctx.header("Authorization");
        boolean authorized = auth != null && auth.equals("Bearer " + botToken);
        String key = ctx.pathParam("key");
        String name = ctx.pathParam("name");
        byte[] bytes;
        String type;
        lock.lock();
        try {
            bytes = files.bytesAt(key, name);
            type = files.mimeTypeOf(key);
        } finally {
            lock.unlock();
        }
        int status = !authorized ? 302 : bytes == null ? 404 : 200;
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":status", Integer.toString(status));
        headers.put(":token", auth == null ? "none" : authorized ? "bot" : "invalid");
        String logged =
                SlackWorld.JSON.createObjectNode().put("path", ctx.path()).toString();
        log.accept(new PlatformCall(DOWNLOAD_CALL, logged, headers));
        if (status == 302) {
            ctx.redirect("/signin?redir=" + URLEncoder.encode(ctx.path(), StandardCharsets.UTF_8));
        } else if (status == 404) {
            ctx.status(404).contentType("text/plain").result("file not found");
        } else {
            ctx.contentType(type).result(bytes);
        }
    }
}
