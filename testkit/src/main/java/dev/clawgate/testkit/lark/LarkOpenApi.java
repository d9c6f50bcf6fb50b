package dev.clawgate.testkit.lark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The open platform's HTTP API under {@code /open-apis} as the fake serves it. Every answer is {@code {"code": 0,
 * "msg": "success", "data": ...}} or an error {@code code} with {@code msg}: 99991663 (tenant token invalid or
 * expired), 99991661 (no token), 99991400 (rate limited, HTTP 429), 230072 (edited too often).
 */
final class LarkOpenApi {
    private static final Pattern REPLY = Pattern.compile("/open-apis/im/v1/messages/([^/]+)/reply");
    private static final Pattern ONE = Pattern.compile("/open-apis/im/v1/messages/([^/]+)");
    private static final Pattern RESOURCE = Pattern.compile("/open-apis/im/v1/messages/([^/]+)/resources/([^/]+)");
    private static final Pattern REACTIONS = Pattern.compile("/open-apis/im/v1/messages/([^/]+)/reactions(/[^/]+)?");
    static final int MAX_EDITS = 20;

    private final FakeLark fake;

    LarkOpenApi(FakeLark fake) {
        this.fake = fake;
    }

    void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String verb = ex.getRequestMethod();
            byte[] body = ex.getRequestBody().readAllBytes();
            String name = name(verb, path);
            Map<String, String> headers = new LinkedHashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.getFirst()));
            String shown = name.equals("images.upload")
                    ? "<multipart " + body.length + " bytes>"
                    : new String(body, StandardCharsets.UTF_8);
            headers.put(":query", String.valueOf(ex.getRequestURI().getQuery()));
            fake.log(new PlatformCall(name, shown, headers));
            fake.delayIfAsked(name);
            FakeLark.Failure f = fake.takeFailure(name);
            if (f != null) {
                if (f.httpStatus() == 429) ex.getResponseHeaders().set("x-ogw-ratelimit-reset", "1");
                error(ex, f.httpStatus(), f.code(), f.msg());
                return;
            }
            if (name.equals("tenant_access_token")) {
                JsonNode b = LarkEvents.JSON.readTree(body);
                if (!fake.appId.equals(b.path("app_id").asText())
                        || !fake.appSecret.equals(b.path("app_secret").asText())) {
                    error(ex, 400, 10014, "app secret invalid");
                    return;
                }
                String token = fake.issueToken();
                ObjectNode r = LarkEvents.JSON
                        .createObjectNode()
                        .put("code", 0)
                        .put("msg", "ok")
                        .put("tenant_access_token", token)
                        .put("expire", fake.expireSeconds);
                send(ex, 200, r);
                return;
            }
            String auth = headers.getOrDefault("authorization", "");
            if (!auth.startsWith("Bearer ")) {
                error(ex, 400, 99991661, "Missing access token for authorization.");
                return;
            }
            if (!fake.tokenValid(auth.substring(7))) {
                error(
                        ex,
                        400,
                        99991663,
                        "Invalid access token for authorization. Please make a request with token " + "attached.");
                return;
            }
            route(ex, name, path, body);
        } catch (RuntimeException e) {
            error(ex, 500, 1, "fake error: " + e);
        }
    }

    /**
     * {@code POST /callback/ws/endpoint}, the long connection's URL (logged {@code ws.endpoint}; the body holds the app
     * secret, so the log shows only the AppID).
     */
    void endpoint(HttpExchange ex, LongConnectionServer socket) throws IOException {
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            JsonNode b = null;
            try {
                b = LarkEvents.JSON.readTree(body);
            } catch (IOException notJson) {
                b = null;
            }
            String appId = b == null ? "" : b.path("AppID").asText("");
            fake.log(new PlatformCall("ws.endpoint", "{\"AppID\":\"" + appId + "\"}", Map.of()));
            fake.delayIfAsked("ws.endpoint");
            FakeLark.Failure f = fake.takeFailure("ws.endpoint");
            if (f != null) {
                error(ex, f.httpStatus(), f.code(), f.msg());
                return;
            }
            if (!ex.getRequestMethod().equals("POST")) {
                error(ex, 405, 405, "method not allowed");
                return;
            }
            send(ex, 200, socket.endpoint(b));
        }
    }

    private static String name(String verb, String path) {
        if (path.equals("/open-apis/auth/v3/tenant_access_token/internal")) return "tenant_access_token";
        if (path.equals("/open-apis/bot/v3/info")) return "bot.info";
        if (path.equals("/open-apis/im/v1/images")) return "images.upload";
        if (path.equals("/open-apis/im/v1/messages")) return "messages.create";
        if (REPLY.matcher(path).matches()) return "messages.reply";
        if (RESOURCE.matcher(path).matches()) return "messages.resources";
        if (REACTIONS.matcher(path).matches()) return verb.equals("DELETE") ? "reactions.delete" : "reactions.create";
        if (ONE.matcher(path).matches() && verb.equals("PUT")) return "messages.update";
        if (ONE.matcher(path).matches() && verb.equals("PATCH")) return "messages.patch";
        if (ONE.matcher(path).matches() && verb.equals("DELETE")) return "messages.delete";
        return verb + " " + path;
    }

    private void route(HttpExchange ex, String name, String path, byte[] body) throws IOException {
        switch (name) {
            case "bot.info" -> {
                ObjectNode r = ok(null);
                r.putObject("bot")
                        .put("open_id", fake.botOpenId)
                        .put("app_name", "Fake Bot")
                        .put("activate_status", 2);
                send(ex, 200, r);
            }
            case "messages.create", "messages.reply" -> {
                JsonNode b = LarkEvents.JSON.readTree(body);
                String parent = null;
                String chat;
                if (name.equals("messages.reply")) {
                    Matcher m = REPLY.matcher(path);
                    m.matches();
                    parent = m.group(1);
                    chat = fake.chats.chatOf(parent);
                    if (chat == null) {
                        error(ex, 400, 230011, "The message was not found.");
                        return;
                    }
                } else {
                    chat = b.path("receive_id").asText();
                }
                String type = b.path("msg_type").asText();
                String content = b.path("content").asText();
                if (type.isEmpty() || content.isEmpty() || chat.isEmpty()) {
                    error(ex, 400, 230001, "invalid message content or receive_id");
                    return;
                }
                if (type.equals("image")
                        && fake.chats.image(LarkEvents.JSON
                                        .readTree(content)
                                        .path("image_key")
                                        .asText())
                                == null) {
                    error(ex, 400, 230001, "image_key not found");
                    return;
                }
                FakeLark.Sent s = fake.chats.record(
                        chat, type, content, parent, b.path("uuid").asText(null));
                send(ex, 200, ok(messageData(s)));
            }
            case "messages.update" -> {
                Matcher m = ONE.matcher(path);
                m.matches();
                JsonNode b = LarkEvents.JSON.readTree(body);
                int r = fake.chats.edit(
                        m.group(1),
                        b.path("msg_type").asText(),
                        b.path("content").asText());
                if (r == 404) error(ex, 400, 230011, "The message was not found.");
                else if (r == 429)
                    error(ex, 400, 230072, "The message has reached the number of times it can be " + "edited.");
                else send(ex, 200, ok(null));
            }
            case "messages.patch" -> {
                // a card (interactive) message is updated with PATCH, content only; text and post are not
                Matcher m = ONE.matcher(path);
                m.matches();
                int r = fake.chats.edit(
                        m.group(1),
                        "interactive",
                        LarkEvents.JSON.readTree(body).path("content").asText());
                if (r == 404) error(ex, 400, 230001, "The message is not a card or was not found.");
                else send(ex, 200, ok(null));
            }
            case "messages.delete" -> {
                Matcher m = ONE.matcher(path);
                m.matches();
                if (fake.chats.recall(m.group(1))) send(ex, 200, ok(null));
                else error(ex, 400, 230011, "The message was not found.");
            }
            case "images.upload" -> {
                String ct = ex.getRequestHeaders().getFirst("Content-Type");
                byte[] image = Multipart.file(ct, body, "image");
                if (image == null || !"message".equals(Multipart.field(ct, body, "image_type"))) {
                    error(ex, 400, 234001, "Invalid request param.");
                    return;
                }
                ObjectNode data = LarkEvents.JSON.createObjectNode().put("image_key", fake.chats.storeImage(image));
                send(ex, 200, ok(data));
            }
            case "messages.resources" -> {
                Matcher m = RESOURCE.matcher(path);
                m.matches();
                byte[] bytes = fake.chats.resource(m.group(1), m.group(2));
                if (bytes == null || !"type=image".equals(ex.getRequestURI().getQuery())) {
                    error(ex, 400, 234003, "File not in msg.");
                    return;
                }
                ex.getResponseHeaders().set("Content-Type", "image/png");
                ex.sendResponseHeaders(200, bytes.length);
                ex.getResponseBody().write(bytes);
            }
            case "reactions.create" -> {
                Matcher m = REACTIONS.matcher(path);
                m.matches();
                String emoji = LarkEvents.JSON
                        .readTree(body)
                        .path("reaction_type")
                        .path("emoji_type")
                        .asText();
                String id = fake.chats.react(m.group(1), emoji);
                ObjectNode data = LarkEvents.JSON.createObjectNode().put("reaction_id", id);
                data.putObject("reaction_type").put("emoji_type", emoji);
                send(ex, 200, ok(data));
            }
            case "reactions.delete" -> {
                Matcher m = REACTIONS.matcher(path);
                m.matches();
                fake.chats.unreact(m.group(1), m.group(2).substring(1));
                send(ex, 200, ok(null));
            }
            default -> error(ex, 404, 404, "no such API in the fake: " + name);
        }
    }

    private ObjectNode messageData(FakeLark.Sent s) {
        ObjectNode d = LarkEvents.JSON
                .createObjectNode()
                .put("message_id", s.messageId())
                .put("root_id", s.parentId() == null ? "" : s.parentId())
                .put("parent_id", s.parentId() == null ? "" : s.parentId())
                .put("msg_type", s.msgType())
                .put("create_time", Long.toString(Instant.now().toEpochMilli()))
                .put("chat_id", s.chatId())
                .put("deleted", false)
                .put("updated", false);
        d.putObject("sender").put("id", fake.appId).put("id_type", "app_id").put("sender_type", "app");
        d.putObject("body").put("content", s.content());
        return d;
    }

    private static ObjectNode ok(ObjectNode data) {
        ObjectNode r = LarkEvents.JSON.createObjectNode().put("code", 0).put("msg", "success");
        if (data != null) r.set("data", data);
        return r;
    }

    private static void error(HttpExchange ex, int status, int code, String msg) throws IOException {
        ObjectNode r = LarkEvents.JSON.createObjectNode().put("code", code).put("msg", msg);
        r.putObject("error").put("log_id", "fake-" + System.nanoTime());
        send(ex, status, r);
    }

    private static void send(HttpExchange ex, int status, ObjectNode body) throws IOException {
        byte[] b = body.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    /** The few multipart/form-data reads the images API needs. */
    static final class Multipart {
        private Multipart() {}

        static byte[] file(String contentType, byte[] body, String name) {
            return part(contentType, body, name);
        }

        static String field(String contentType, byte[] body, String name) {
            byte[] b = part(contentType, body, name);
            return b == null ? null : new String(b, StandardCharsets.UTF_8);
        }

        private static byte[] part(String contentType, byte[] body, String name) {
            if (contentType == null || !contentType.contains("boundary=")) return null;
            String boundary = "--"
                    + contentType
                            .substring(contentType.indexOf("boundary=") + 9)
                            .replace("\"", "");
            String latin = new String(body, StandardCharsets.ISO_8859_1);
            ArrayList<String> parts = new ArrayList<>(java.util.List.of(latin.split(Pattern.quote(boundary))));
            for (String p : parts) {
                int end = p.indexOf("\r\n\r\n");
                if (end < 0 || !p.substring(0, end).contains("name=\"" + name + "\"")) continue;
                String value = p.substring(end + 4);
                if (value.endsWith("\r\n")) value = value.substring(0, value.length() - 2);
                return value.getBytes(StandardCharsets.ISO_8859_1);
            }
            return null;
        }
    }
}
