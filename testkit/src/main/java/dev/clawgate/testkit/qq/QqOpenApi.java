package dev.clawgate.testkit.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;

/**
 * The OpenAPI routes (bot docs, "接口调用与鉴权", "发送消息", "富媒体消息"): the app access token, {@code GET /gateway}, group and C2C
 * messages and rich-media files. Messages: {@code msg_id} makes a passive reply, refused with 40034024 when the message
 * is unknown, older than the window (groups 5 minutes, C2C 60 minutes) or answered 5 times; {@code msg_id + msg_seq}
 * (seq 1 when absent) delivers once, a repeat is 40054005; no {@code msg_id} is an active message, refused 40034102
 * unless {@link FakeQq#allowActive} was set. Errors are HTTP 400 with {@code {"message", "code", "err_code",
 * "trace_id"}}; a missing or expired token 401 with code 11244.
 */
final class QqOpenApi {
    private final FakeQq qq;

    QqOpenApi(FakeQq qq) {
        this.qq = qq;
    }

    void mount(JavalinConfig config) {
        config.routes.post("/app/getAppAccessToken", this::token);
        config.routes.get(
                "/gateway",
                ctx -> handle(ctx, "GET /gateway", () -> {
                    authorize(ctx);
                    return FakeQq.JSON.createObjectNode().put("url", qq.gatewayUrl());
                }));
        for (String kind : new String[] {"groups", "users"}) {
            String call = kind.equals("groups") ? "group" : "c2c";
            config.routes.post(
                    "/v2/" + kind + "/{openid}/messages",
                    ctx -> handle(ctx, "messages." + call, () -> message(ctx, kind.equals("groups"))));
            config.routes.post("/v2/" + kind + "/{openid}/files", ctx -> handle(ctx, "files." + call, () -> file(ctx)));
        }
    }

    /** An answered error. */
    static final class Refusal extends Exception {
        final int status;
        final int code;

        Refusal(int status, int code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }
    }

    private interface Route {
        JsonNode answer() throws Refusal, IOException;
    }

    private void handle(Context ctx, String call, Route route) throws InterruptedException {
        Duration delay;
        int status = 200;
        int code = 0;
        String out;
        qq.lock.lock();
        try {
            delay = qq.delays.remove(call);
            FakeQq.Failure f = qq.failures.stream()
                    .filter(x -> x.call().equals(call))
                    .findFirst()
                    .orElse(null);
            try {
                if (f != null) {
                    qq.failures.remove(f);
                    throw new Refusal(f.httpStatus(), f.code(), f.message());
                }
                out = route.answer().toString();
            } catch (Refusal r) {
                status = r.status;
                code = r.code;
                out = FakeQq.JSON
                        .createObjectNode()
                        .put("message", r.getMessage())
                        .put("code", r.code)
                        .put("err_code", r.code)
                        .put("trace_id", UUID.randomUUID().toString())
                        .toString();
            } catch (IOException e) {
                status = 400;
                code = 40034001;
                out = "{\"message\":\"invalid body\",\"code\":40034001}";
            }
            qq.calls.add(new PlatformCall(
                    call,
                    ctx.body(),
                    Map.of(
                            ":status", String.valueOf(status),
                            ":code", String.valueOf(code),
                            ":path", ctx.path(),
                            "Authorization", String.valueOf(ctx.header("Authorization")))));
        } finally {
            qq.lock.unlock();
        }
        // a delayed answer: the platform acted; a client whose timeout passes loses the answer
        if (delay != null) Thread.sleep(delay);
        ctx.status(status).contentType("application/json").result(out);
    }

    private void token(Context ctx) throws InterruptedException {
        handle(ctx, "getAppAccessToken", () -> {
            JsonNode b = FakeQq.JSON.readTree(ctx.body());
            if (!qq.appId.equals(b.path("appId").asText())
                    || !qq.secret.equals(b.path("clientSecret").asText())) {
                // the token endpoint answers its codes with HTTP 200
                return FakeQq.JSON.createObjectNode().put("code", 100016).put("message", "invalid appid or secret");
            }
            String token = "qq-token-" + UUID.randomUUID();
            qq.tokens.put(token, qq.now().plusSeconds(qq.expiresIn));
            return FakeQq.JSON
                    .createObjectNode()
                    .put("access_token", token)
                    .put("expires_in", String.valueOf(qq.expiresIn));
        });
    }

    private void authorize(Context ctx) throws Refusal {
        String h = ctx.header("Authorization");
        if (h == null || !h.startsWith("QQBot ") || !qq.tokenValid(h.substring(6))) {
            throw new Refusal(401, 11244, "token not exist or expire");
        }
    }

    private JsonNode message(Context ctx, boolean group) throws Refusal, IOException {
        authorize(ctx);
        JsonNode b = FakeQq.JSON.readTree(ctx.body());
        String chat = ctx.pathParam("openid");
        int type = b.path("msg_type").asInt(-1);
        String content = b.path("content").asText("");
        if (type != 0 && type != 2 && type != 7) throw new Refusal(400, 40034001, "invalid msg_type");
        if (type == 0 && content.isBlank()) throw new Refusal(400, 40034002, "content is empty");
        if (content.length() > qq.textLimit) throw new Refusal(400, 40034003, "content too long");
        String fileInfo = type == 7 ? b.path("media").path("file_info").asText("") : null;
        if (type == 7 && !qq.files.containsKey(fileInfo)) throw new Refusal(400, 40034005, "invalid file_info");
        String msgId = b.path("msg_id").asText(null);
        Integer seq = null;
        if (msgId != null) {
            FakeQq.Received r = qq.received.get(msgId);
            if (r == null || r.group() != group || !r.chat().equals(chat)) {
                throw new Refusal(400, 40034024, "请求参数msg_id无效或越权");
            }
            seq = b.path("msg_seq").asInt(1);
            var used = qq.seqs.computeIfAbsent(msgId, k -> new HashSet<>());
            if (used.contains(seq)) throw new Refusal(400, 40054005, "消息被去重，请检查请求msgseq");
            Duration window = group ? qq.groupWindow : qq.c2cWindow;
            if (qq.now().isAfter(r.at().plus(window)) || used.size() >= qq.maxPassive) {
                throw new Refusal(400, 40034024, "请求参数msg_id无效或越权");
            }
            used.add(seq);
        } else if (!qq.activeAllowed) {
            throw new Refusal(400, 40034102, "无权限");
        }
        String id = "ROBOT1.0_" + UUID.randomUUID().toString().replace("-", "");
        Instant at = qq.now();
        qq.sent.add(new FakeQq.Sent(id, chat, group, type, content, msgId, seq, fileInfo, at));
        return FakeQq.JSON.createObjectNode().put("id", id).put("timestamp", at.toString());
    }

    private JsonNode file(Context ctx) throws Refusal, IOException {
        authorize(ctx);
        JsonNode b = FakeQq.JSON.readTree(ctx.body());
        if (b.path("file_type").asInt(0) < 1 || b.path("file_type").asInt(0) > 4) {
            throw new Refusal(400, 40034006, "invalid file_type");
        }
        byte[] bytes;
        if (b.hasNonNull("file_data")) {
            bytes = Base64.getDecoder().decode(b.path("file_data").asText());
        } else if (b.hasNonNull("url")) {
            bytes = b.path("url").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        } else {
            throw new Refusal(400, 40034007, "url or file_data is required");
        }
        String info = "fileinfo-" + UUID.randomUUID();
        qq.files.put(info, bytes);
        ObjectNode out = FakeQq.JSON
                .createObjectNode()
                .put("file_uuid", UUID.randomUUID().toString())
                .put("file_info", info)
                .put("ttl", 3600);
        return out;
    }
}
