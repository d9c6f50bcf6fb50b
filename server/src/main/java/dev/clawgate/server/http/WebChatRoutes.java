package dev.clawgate.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.server.channel.WebChatChannel;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.websocket.WsContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.websocket.api.Callback;

/**
 * Mounts the web chat (SPEC CH-2) on the gateway's HTTP server: the page and its two files at {@code /chat}, the
 * session history at {@code /chat/history}, the socket at {@code /chat/ws}. The page's files carry no data and need no
 * token; history and socket follow SPEC OP-3.
 */
final class WebChatRoutes {
    static final String PAGE = "/chat";
    static final String HISTORY = "/chat/history";
    static final String SOCKET = "/chat/ws";
    private static final long SEND_TIMEOUT_SECONDS = 10;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ASSETS = "/dev/clawgate/server/webchat/";
    private static final String SECURITY_POLICY = "default-src 'self'; connect-src 'self'; frame-ancestors 'none'";

    private WebChatRoutes() {}

    /**
     * @param maxMessageBytes {@code gateway.max_body_bytes}: a larger socket message or frame closes the socket (1009,
     *     SPEC OP-10)
     * @param tokenFree paths the token check skips; the page's files and the socket are added to it
     */
    static void mount(
            JavalinConfig config, WebChatChannel chat, String authToken, long maxMessageBytes, Set<String> tokenFree) {
        boolean tokenSet = authToken != null && !authToken.isBlank();
        byte[] html = asset("index.html");
        byte[] js = asset("chat.js");
        byte[] css = asset("chat.css");
        tokenFree.addAll(Set.of(PAGE, PAGE + "/", PAGE + "/chat.js", PAGE + "/chat.css"));
        // the socket checks its token itself, before the upgrade
        tokenFree.add(SOCKET);
        config.jetty.modifyWebSocketServletFactory(f -> {
            f.setMaxTextMessageSize(maxMessageBytes);
            f.setMaxBinaryMessageSize(maxMessageBytes);
            f.setMaxFrameSize(maxMessageBytes);
        });
        config.routes.get(PAGE, ctx -> file(ctx, html, "text/html; charset=utf-8"));
        config.routes.get(PAGE + "/chat.js", ctx -> file(ctx, js, "text/javascript; charset=utf-8"));
        config.routes.get(PAGE + "/chat.css", ctx -> file(ctx, css, "text/css; charset=utf-8"));
        // the history's caller and token are checked with every route's (HttpServer's before-handler)
        config.routes.get(HISTORY, ctx -> {
            String client = clientId(ctx.queryParam("client"));
            ObjectNode body = JSON.createObjectNode().put("client", client);
            ArrayNode messages = body.putArray("messages");
            for (WebChatChannel.HistoryItem item : chat.history(client)) {
                messages.addObject()
                        .put("role", item.role().name().toLowerCase(Locale.ROOT))
                        .put("text", item.text());
            }
            ctx.header("Cache-Control", "no-store")
                    .contentType("application/json")
                    .result(body.toString());
        });
        config.routes.wsBeforeUpgrade(SOCKET, ctx -> {
            checkCaller(ctx, tokenSet);
            if (tokenSet && !HttpServer.authorized(ctx, authToken))
                throw new HttpResponseException(401, "missing or wrong gateway token");
            clientId(ctx.queryParam("client"));
        });
        Map<String, Page> open = new ConcurrentHashMap<>();
        config.routes.ws(SOCKET, ws -> {
            ws.onConnect(ctx -> {
                ctx.enableAutomaticPings(15, TimeUnit.SECONDS);
                Page page = new Page(ctx, ctx.queryParam("client"));
                open.put(ctx.sessionId(), page);
                chat.opened(page);
            });
            ws.onMessage(ctx -> {
                Page page = open.get(ctx.sessionId());
                if (page != null) chat.received(page, ctx.message());
            });
            ws.onClose(ctx -> gone(open, chat, ctx));
            ws.onError(ctx -> gone(open, chat, ctx));
        });
    }

    private static void gone(Map<String, Page> open, WebChatChannel chat, WsContext ctx) {
        Page page = open.remove(ctx.sessionId());
        if (page != null) chat.closed(page);
    }

    private static String clientId(String id) {
        if (!WebChatChannel.validClientId(id)) {
            throw new HttpResponseException(400, "'client' must be 8 to 64 letters, digits, _ or -");
        }
        return id;
    }

    /** SPEC OP-3, as on every route ({@link CallerCheck}), answered before the upgrade. */
    private static void checkCaller(Context ctx, boolean tokenSet) {
        CallerCheck.origin(ctx, tokenSet).ifPresent(r -> {
            throw new HttpResponseException(r.status(), r.message());
        });
    }

    private static void file(Context ctx, byte[] body, String type) {
        ctx.header("Cache-Control", "no-cache")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", SECURITY_POLICY)
                .contentType(type)
                .result(body);
    }

    private static byte[] asset(String name) {
        try (InputStream in = WebChatRoutes.class.getResourceAsStream(ASSETS + name)) {
            if (in == null)
                throw new IllegalStateException("web chat file missing from the class path: " + ASSETS + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One socket as the channel sees it; frames are sent one at a time and awaited, so a stuck page is closed, not
     * queued for.
     */
    private static final class Page implements WebChatChannel.Connection {
        private final WsContext ctx;
        private final String clientId;
        private final ReentrantLock lock = new ReentrantLock();

        Page(WsContext ctx, String clientId) {
            this.ctx = ctx;
            this.clientId = clientId;
        }

        @Override
        public String clientId() {
            return clientId;
        }

        @Override
        public boolean send(String frame) {
            lock.lock();
            try {
                if (!ctx.session.isOpen()) return false;
                Callback.Completable sent = new Callback.Completable();
                ctx.session.sendText(frame, sent);
                sent.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                close(1011, "the page did not take a frame in time");
                return false;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close(int code, String reason) {
            ctx.closeSession(code, reason);
        }
    }
}
