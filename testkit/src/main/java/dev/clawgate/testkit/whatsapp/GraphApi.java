package dev.clawgate.testkit.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Graph API side: {@code POST /{version}/{phone_number_id}/messages} ("Send messages"), {@code POST
 * /{version}/{phone_number_id}/media}, {@code GET} and {@code DELETE /{version}/{media_id}} ("Media"), and the media
 * download URL, which needs the same bearer token. Every call is logged before it is answered; injected failures come
 * first.
 */
final class GraphApi {
    static final int TEXT_LIMIT = 4096;
    static final int CAPTION_LIMIT = 1024;
    static final String DOWNLOAD_PATH = "/whatsapp_business/attachments/";
    /** "Supported media types" with their size limits. */
    private static final Map<String, Long> MEDIA_LIMITS = Map.ofEntries(
            Map.entry("image/jpeg", 5L << 20),
            Map.entry("image/png", 5L << 20),
            Map.entry("image/webp", 500L << 10),
            Map.entry("audio/ogg", 16L << 20),
            Map.entry("audio/mpeg", 16L << 20),
            Map.entry("audio/mp4", 16L << 20),
            Map.entry("audio/aac", 16L << 20),
            Map.entry("audio/amr", 16L << 20),
            Map.entry("video/mp4", 16L << 20),
            Map.entry("video/3gpp", 16L << 20),
            Map.entry("application/pdf", 100L << 20),
            Map.entry("text/plain", 100L << 20),
            Map.entry("application/msword", 100L << 20),
            Map.entry("application/vnd.ms-excel", 100L << 20),
            Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", 100L << 20),
            Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 100L << 20));

    private static final Set<String> SEND_TYPES = Set.of(
            "text",
            "image",
            "document",
            "audio",
            "video",
            "sticker",
            "reaction",
            "template",
            "location",
            "contacts",
            "interactive");

    private final CloudState st;
    private final Consumer<PlatformCall> calls;
    private final Supplier<String> origin;
    private final BiConsumer<OutboundMessage, GraphError> accepted;

    private record Answer(int status, byte[] body, String contentType, Runnable after) {
        static Answer json(JsonNode n, Runnable after) {
            return new Answer(200, n.toString().getBytes(StandardCharsets.UTF_8), "application/json", after);
        }
    }

    /**
     * @param accepted told of each accepted message after it is answered, with the failure to report for it (or null)
     */
    GraphApi(
            CloudState st,
            Consumer<PlatformCall> calls,
            Supplier<String> origin,
            BiConsumer<OutboundMessage, GraphError> accepted) {
        this.st = st;
        this.calls = calls;
        this.origin = origin;
        this.accepted = accepted;
    }

    void handle(HttpExchange ex) {
        try (ex) {
            String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getRawPath();
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            String contentType = ex.getRequestHeaders().getFirst("Content-Type");
            List<String> segs = new ArrayList<>();
            for (String s : path.split("/")) if (!s.isEmpty()) segs.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
            Answer a;
            try {
                a = serve(
                        method,
                        path,
                        segs,
                        query,
                        body,
                        contentType,
                        ex.getRequestHeaders().getFirst("Authorization"));
            } catch (GraphFailure f) {
                byte[] b = f.error
                        .envelope("A" + Long.toHexString(System.nanoTime()))
                        .toString()
                        .getBytes(StandardCharsets.UTF_8);
                a = new Answer(f.error.httpStatus(), b, "application/json", null);
            }
            ex.getResponseHeaders().set("Content-Type", a.contentType());
            ex.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
            if (a.body().length > 0) ex.getResponseBody().write(a.body());
            ex.close();
            if (a.after() != null) a.after().run();
        } catch (IOException e) {
            // the client hung up: nothing to answer
        }
    }

    private Answer serve(
            String method,
            String path,
            List<String> segs,
            Map<String, String> query,
            byte[] body,
            String contentType,
            String authorization)
            throws GraphFailure {
        String found = endpoint(method, path, segs);
        String name = found.equals("media_url") && segs.get(1).equals(st.phoneNumberId) ? "phone_number" : found;
        record(name, method, path, query, body, contentType);
        authenticate(authorization, query);
        return st.locked(() -> {
            GraphError injected = st.nextFailure(name);
            if (injected != null) throw new GraphFailure(injected);
            return switch (name) {
                case "messages" -> messages(segs.get(1), body);
                case "media_upload" -> upload(segs.get(1), contentType, body);
                case "phone_number" -> phoneNumber();
                case "media_url" -> mediaUrl(segs.get(1));
                case "media_delete" -> {
                    if (st.media.remove(segs.get(1)) == null) throw unknownObject("delete", segs.get(1));
                    yield Answer.json(WebhookPayloads.JSON.createObjectNode().put("success", true), null);
                }
                case "media_download" -> download(query.get("mid"));
                default ->
                    throw new GraphFailure(new GraphError(
                            400,
                            2500,
                            null,
                            "OAuthException",
                            "Unknown path components: " + path,
                            "Unknown path components"));
            };
        });
    }

    private static String endpoint(String method, String path, List<String> segs) {
        if (path.startsWith(DOWNLOAD_PATH) && method.equals("GET")) return "media_download";
        if (segs.isEmpty() || !segs.getFirst().matches("v\\d+\\.\\d+")) return "unknown";
        if (segs.size() == 3 && method.equals("POST") && segs.get(2).equals("messages")) return "messages";
        if (segs.size() == 3 && method.equals("POST") && segs.get(2).equals("media")) return "media_upload";
        if (segs.size() == 2 && method.equals("GET")) return "media_url";
        if (segs.size() == 2 && method.equals("DELETE")) return "media_delete";
        return "unknown";
    }

    private void authenticate(String authorization, Map<String, String> query) throws GraphFailure {
        String token = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).strip()
                : query.get("access_token");
        if (token == null || token.isEmpty()) {
            throw new GraphFailure(new GraphError(
                    400,
                    2500,
                    null,
                    "OAuthException",
                    "An active access token must be used to query information about the current user.",
                    "No access token"));
        }
        if (!token.equals(st.accessToken)) {
            throw new GraphFailure(new GraphError(
                    401,
                    190,
                    null,
                    "OAuthException",
                    "Invalid OAuth access token - Cannot parse access token",
                    "Invalid OAuth access token"));
        }
        if (st.locked(() -> st.tokenExpired)) throw new GraphFailure(GraphError.tokenExpired());
    }

    private Answer messages(String phoneNumberId, byte[] raw) throws GraphFailure {
        if (!phoneNumberId.equals(st.phoneNumberId)) throw unknownObject("post", phoneNumberId);
        JsonNode b = json(raw);
        if (!"whatsapp".equals(b.path("messaging_product").asText()))
            throw invalid("The parameter messaging_product is required.");
        if ("read".equals(b.path("status").asText())) return markRead(b);
        String recipientType = b.path("recipient_type").asText("individual");
        if (!recipientType.equals("individual") && !recipientType.equals("group"))
            throw invalid("Invalid recipient_type");
        String to = b.path("to").asText(null);
        if (to == null || to.isBlank()) throw invalid("The parameter to is required.");
        String type = b.path("type").asText("text");
        if (!SEND_TYPES.contains(type)) throw invalid("Param type must be one of " + SEND_TYPES);
        validateContent(type, b);
        if (b.has("context") && !b.path("context").path("message_id").isTextual())
            throw invalid("Param context['message_id'] is required");
        GraphError asyncFailure = null;
        if (recipientType.equals("group")) {
            if (!st.groups.containsKey(to)) throw invalid("Param to is not a valid group id");
        } else {
            String waId = to.replaceAll("[^0-9]", "");
            if (!st.contacts.containsKey(waId)) {
                asyncFailure = GraphError.undeliverable();
            } else if (!type.equals("template") && !st.insideWindow(waId)) {
                if (st.windowErrorsSynchronous) throw new GraphFailure(GraphError.reEngagement());
                asyncFailure = GraphError.reEngagement();
            }
        }
        OutboundMessage m = new OutboundMessage(st.newWamid(), recipientType, to, type, b, "accepted", null);
        st.sent.put(m.wamid(), m);
        ObjectNode r = WebhookPayloads.JSON.createObjectNode().put("messaging_product", "whatsapp");
        ObjectNode contact = r.putArray("contacts").addObject().put("input", to);
        if (recipientType.equals("individual")) contact.put("wa_id", to.replaceAll("[^0-9]", ""));
        r.putArray("messages").addObject().put("id", m.wamid());
        GraphError failure = asyncFailure;
        return Answer.json(r, () -> accepted.accept(m, failure));
    }

    private void validateContent(String type, JsonNode b) throws GraphFailure {
        JsonNode c = b.path(type);
        if (!c.isObject()) throw invalid("Param " + type + " is required");
        switch (type) {
            case "text" -> {
                String body = c.path("body").asText("");
                if (body.isEmpty()) throw invalid("Param text['body'] is required");
                if (body.codePointCount(0, body.length()) > TEXT_LIMIT) {
                    throw invalid("Param text['body'] must be at most " + TEXT_LIMIT + " characters long.");
                }
            }
            case "image", "document", "audio", "video", "sticker" -> {
                if (c.has("id") == c.has("link"))
                    throw invalid("Param " + type + " must have exactly one of id or link");
                if (c.has("id") && !st.media.containsKey(c.path("id").asText())) {
                    throw new GraphFailure(new GraphError(
                            400,
                            131053,
                            null,
                            "OAuthException",
                            "Media upload error",
                            "Media id " + c.path("id").asText() + " is not a valid uploaded media"));
                }
                if (c.path("caption").asText("").length() > CAPTION_LIMIT) {
                    throw invalid(
                            "Param " + type + "['caption'] must be at most " + CAPTION_LIMIT + " characters long.");
                }
            }
            case "reaction" -> {
                if (!c.path("message_id").isTextual()) throw invalid("Param reaction['message_id'] is required");
                if (!c.path("emoji").isTextual()) throw invalid("Param reaction['emoji'] is required");
            }
            case "template" -> {
                if (!c.path("name").isTextual()) throw invalid("Param template['name'] is required");
            }
            default -> {}
        }
    }

    /** "Mark messages as read" (optionally with a typing indicator): {@code {"success":true}}. */
    private Answer markRead(JsonNode b) throws GraphFailure {
        String id = b.path("message_id").asText(null);
        if (id == null || !st.inboundIds.contains(id)) throw invalid("Param message_id is not a valid message id");
        st.readMarks.add(id);
        if ("text".equals(b.path("typing_indicator").path("type").asText())) st.typingIndicators.add(id);
        return Answer.json(WebhookPayloads.JSON.createObjectNode().put("success", true), null);
    }

    /** {@code POST /{phone_number_id}/media}: multipart {@code file}, {@code type}, {@code messaging_product}. */
    private Answer upload(String phoneNumberId, String contentType, byte[] body) throws GraphFailure {
        if (!phoneNumberId.equals(st.phoneNumberId)) throw unknownObject("post", phoneNumberId);
        MultipartForm form = MultipartForm.parse(contentType, body);
        if (!"whatsapp".equals(form.fields.get("messaging_product")))
            throw invalid("The parameter messaging_product is required.");
        MultipartForm.Part file = form.files.get("file");
        if (file == null) throw invalid("The parameter file is required.");
        String type = form.fields
                .getOrDefault("type", file.contentType())
                .split(";")[0]
                .strip();
        Long limit = MEDIA_LIMITS.get(type);
        if (limit == null)
            throw invalid("Param file must be a file with one of the following types: " + MEDIA_LIMITS.keySet());
        if (file.bytes().length > limit)
            throw invalid("Param file is too large: at most " + limit + " bytes for " + type);
        CloudState.Media m = st.addMedia(file.bytes(), type, file.fileName());
        return Answer.json(WebhookPayloads.JSON.createObjectNode().put("id", m.id()), null);
    }

    /** {@code GET /{phone_number_id}} ("WhatsApp Business Phone Number"): its display number, name and rating. */
    private Answer phoneNumber() {
        return Answer.json(
                WebhookPayloads.JSON
                        .createObjectNode()
                        .put("display_phone_number", "+" + st.displayPhoneNumber)
                        .put("verified_name", "Clawgate Test")
                        .put("quality_rating", "GREEN")
                        .put("id", st.phoneNumberId),
                null);
    }

    /** {@code GET /{media_id}}: the download URL (valid 5 minutes), MIME type, SHA-256 and size. */
    private Answer mediaUrl(String id) throws GraphFailure {
        CloudState.Media m = st.media.get(id);
        if (m == null) throw unknownObject("get", id);
        st.mediaUrlIssuedMillis.put(id, st.now());
        String url = origin.get() + DOWNLOAD_PATH + "?mid=" + id + "&ext=" + st.nowSeconds() + "&hash="
                + m.sha256Hex().substring(0, 16);
        return Answer.json(
                WebhookPayloads.JSON
                        .createObjectNode()
                        .put("messaging_product", "whatsapp")
                        .put("url", url)
                        .put("mime_type", m.mimeType())
                        .put("sha256", m.sha256Hex())
                        .put("file_size", m.bytes().length)
                        .put("id", id),
                null);
    }

    private Answer download(String id) throws GraphFailure {
        Long issued = id == null ? null : st.mediaUrlIssuedMillis.get(id);
        CloudState.Media m = id == null ? null : st.media.get(id);
        if (m == null || issued == null || st.now() - issued > CloudState.MEDIA_URL_LIFETIME.toMillis()) {
            throw new GraphFailure(new GraphError(
                    404, 100, null, "OAuthException", "Media URL expired or unknown", "Retrieve the media URL again"));
        }
        return new Answer(200, m.bytes(), m.mimeType(), null);
    }

    private void record(
            String name, String method, String path, Map<String, String> query, byte[] body, String contentType) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(":method", method);
        h.put(":path", path);
        if (query.containsKey("mid")) h.put("mid", query.get("mid"));
        if (contentType != null) h.put("content-type", contentType);
        String shown = body.length == 0
                ? ""
                : contentType != null && contentType.startsWith("application/json")
                        ? new String(body, StandardCharsets.UTF_8)
                        : "{\"size\":" + body.length + "}";
        calls.accept(new PlatformCall(name, shown, h));
    }

    private static JsonNode json(byte[] raw) throws GraphFailure {
        try {
            JsonNode n = WebhookPayloads.JSON.readTree(raw);
            if (n == null || !n.isObject()) throw invalid("The request body must be a JSON object");
            return n;
        } catch (IOException e) {
            throw invalid("The request body is not valid JSON");
        }
    }

    private static GraphFailure invalid(String details) {
        return new GraphFailure(GraphError.invalidParameter(details));
    }

    /** Graph's answer for an id it does not know (code 100, subcode 33). */
    private static GraphFailure unknownObject(String verb, String id) {
        return new GraphFailure(new GraphError(
                400,
                100,
                33,
                "GraphMethodException",
                "Unsupported " + verb
                        + " request. Object with ID '"
                        + id + "' does not exist, cannot be loaded due to missing permissions, "
                        + "or does not support this operation",
                "Unsupported " + verb + " request"));
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null) return q;
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (pair.isEmpty()) continue;
            q.put(
                    URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }
}
