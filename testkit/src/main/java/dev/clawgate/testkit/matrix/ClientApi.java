package dev.clawgate.testkit.matrix;

import com.sun.net.httpserver.HttpExchange;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.matrix.Exchange.Answer;
import dev.clawgate.testkit.matrix.Exchange.Endpoint;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The HTTP side: routes {@code /_matrix/...} paths to endpoints, authenticates the access token (the
 * {@code Authorization: Bearer} header, or the deprecated {@code access_token} query parameter), applies injected
 * failures and stalls, logs every call, and writes the answer. Unknown paths get 404 {@code M_UNRECOGNIZED}, a known
 * path with the wrong method 405 (Client-Server API, "API standards").
 */
final class ClientApi {
    private final Homeserver hs;
    private final SyncEndpoint sync;
    private final RoomEndpoints rooms;
    private final MediaEndpoints media;
    private final RoomReads reads;
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final Map<String, ArrayDeque<MatrixError>> failures = new HashMap<>();
    private final Map<String, ArrayDeque<Duration>> stalls = new HashMap<>();

    private record Route(String name, boolean authenticated, Endpoint endpoint) {}

    ClientApi(Homeserver hs) {
        this.hs = hs;
        this.sync = new SyncEndpoint(hs);
        this.rooms = new RoomEndpoints(hs);
        this.media = new MediaEndpoints(hs);
        this.reads = new RoomReads(hs);
    }

    List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    void clearCalls() {
        calls.clear();
    }

    void failNext(String endpoint, MatrixError error) {
        hs.locked(() ->
                failures.computeIfAbsent(endpoint, e -> new ArrayDeque<>()).add(error));
    }

    void stallNext(String endpoint, Duration delay) {
        hs.locked(
                () -> stalls.computeIfAbsent(endpoint, e -> new ArrayDeque<>()).add(delay));
    }

    void handle(HttpExchange ex) {
        try (ex) {
            String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
            byte[] body = ex.getRequestBody().readAllBytes();
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            List<String> segments = new ArrayList<>();
            for (String s : ex.getRequestURI().getRawPath().split("/")) {
                if (!s.isEmpty()) segments.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
            }
            Map<String, String> headers = new LinkedHashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.getFirst()));
            Answer answer;
            try {
                answer = serve(method, segments, query, body, headers, ex);
            } catch (MatrixError e) {
                answer = Answer.error(e);
            }
            write(ex, answer);
        } catch (IOException e) {
            // the client hung up (an abandoned long poll, a timeout): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Answer serve(
            String method,
            List<String> segments,
            Map<String, String> query,
            byte[] body,
            Map<String, String> headers,
            HttpExchange ex)
            throws MatrixError, InterruptedException {
        Route route = route(method, segments);
        Login login = null;
        MatrixError refused = null;
        if (route.authenticated()) {
            try {
                login = authenticate(headers, query);
            } catch (MatrixError e) {
                refused = e;
            }
        }
        record(route.name(), method, ex, body, headers, login); // refused calls are logged too
        if (refused != null) throw refused;
        MatrixError injected = hs.locked(() -> {
            ArrayDeque<MatrixError> q = failures.get(route.name());
            return q == null ? null : q.poll();
        });
        if (injected != null) throw injected;
        Answer answer =
                route.endpoint().handle(new Exchange(route.name(), method, segments, query, body, headers, login));
        Duration stall = hs.locked(() -> {
            ArrayDeque<Duration> q = stalls.get(route.name());
            return q == null ? null : q.poll();
        });
        if (stall != null) Thread.sleep(stall); // processed, answered late: the client cannot tell whether it happened
        return answer;
    }

    private Login authenticate(Map<String, String> headers, Map<String, String> query) throws MatrixError {
        String auth = headers.get("authorization");
        String token = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)
                ? auth.substring(7).strip()
                : query.get("access_token");
        if (token == null || token.isEmpty()) throw MatrixError.missingToken();
        Login login = hs.locked(() -> hs.logins.get(token));
        if (login == null) throw MatrixError.unknownToken();
        return login;
    }

    private void record(
            String name, String method, HttpExchange ex, byte[] body, Map<String, String> headers, Login login) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(":method", method);
        String rawQuery = ex.getRequestURI().getRawQuery();
        String shownQuery = rawQuery == null ? "" : rawQuery.replaceAll("(^|&)access_token=[^&]*", "");
        h.put(
                ":path",
                ex.getRequestURI().getRawPath()
                        + (shownQuery.isEmpty() ? "" : "?" + shownQuery.replaceFirst("^&", "")));
        if (login != null) h.put("device", login.deviceId());
        String type = headers.get("content-type");
        if (type != null) h.put("content-type", type);
        boolean text = body.length > 0 && (type == null || type.startsWith("application/json"));
        String shown = text
                ? new String(body, StandardCharsets.UTF_8)
                : body.length == 0 ? "" : "{\"size\":" + body.length + "}";
        calls.add(new PlatformCall(name, shown, h));
    }

    private Route route(String method, List<String> s) throws MatrixError {
        if (s.size() >= 3 && s.get(0).equals("_matrix") && s.get(1).equals("client")) {
            List<String> rest = s.subList(3, s.size());
            return switch (s.get(2)) {
                case "versions" -> on(method, "GET", "versions", false, x -> Answer.json(versions()));
                case "v3" -> v3(method, rest);
                case "v1" -> v1(method, rest);
                default -> throw MatrixError.unrecognized(404);
            };
        }
        if (s.size() >= 4
                && s.get(0).equals("_matrix")
                && s.get(1).equals("media")
                && s.get(2).equals("v3")) {
            return switch (s.get(3)) {
                case "upload" -> on(method, "POST", "upload", true, media::upload);
                // Matrix 1.11 "Content repository": unauthenticated downloads are frozen; new media is not served here
                case "download", "thumbnail" ->
                    on(method, "GET", "legacy_download", false, x -> {
                        throw MatrixError.notFound("Not found: use the authenticated media endpoints");
                    });
                default -> throw MatrixError.unrecognized(404);
            };
        }
        throw MatrixError.unrecognized(404);
    }

    private Route v3(String method, List<String> r) throws MatrixError {
        int n = r.size();
        if (n == 1 && r.get(0).equals("sync")) return on(method, "GET", "sync", true, sync::sync);
        if (n == 1 && r.get(0).equals("joined_rooms"))
            return on(method, "GET", "joined_rooms", true, reads::joinedRooms);
        if (n == 2 && r.get(0).equals("account") && r.get(1).equals("whoami")) {
            return on(method, "GET", "whoami", true, reads::whoami);
        }
        if (n == 2 && r.get(0).equals("join")) return on(method, "POST", "join", true, rooms::join);
        if (n >= 3 && r.get(0).equals("user")) {
            if (n == 3 && r.get(2).equals("filter")) return on(method, "POST", "filter", true, sync::createFilter);
            if (n == 4 && r.get(2).equals("filter")) return on(method, "GET", "filter", true, sync::getFilter);
            if (n == 4 && r.get(2).equals("account_data")) {
                return method.equals("PUT")
                        ? on(method, "PUT", "account_data", true, reads::putAccountData)
                        : on(method, "GET", "account_data", true, reads::getAccountData);
            }
        }
        if (n >= 3 && r.get(0).equals("rooms")) {
            String op = r.get(2);
            switch (op) {
                case "send":
                    if (n == 5) return on(method, "PUT", "send", true, rooms::send);
                    break;
                case "redact":
                    if (n == 5) return on(method, "PUT", "redact", true, rooms::redact);
                    break;
                case "typing":
                    if (n == 4) return on(method, "PUT", "typing", true, rooms::typing);
                    break;
                case "receipt":
                    if (n == 5) return on(method, "POST", "receipt", true, rooms::receipt);
                    break;
                case "read_markers":
                    if (n == 3) return on(method, "POST", "read_markers", true, rooms::readMarkers);
                    break;
                case "join":
                    if (n == 3) return on(method, "POST", "join", true, rooms::join);
                    break;
                case "leave":
                    if (n == 3) return on(method, "POST", "leave", true, rooms::leave);
                    break;
                case "state":
                    if (n <= 5) return on(method, "GET", "state", true, reads::state);
                    break;
                case "joined_members":
                    if (n == 3) return on(method, "GET", "joined_members", true, reads::joinedMembers);
                    break;
                case "members":
                    if (n == 3) return on(method, "GET", "members", true, reads::members);
                    break;
                case "messages":
                    if (n == 3) return on(method, "GET", "messages", true, reads::messages);
                    break;
                case "event":
                    if (n == 4) return on(method, "GET", "event", true, reads::event);
                    break;
                default:
                    break;
            }
        }
        throw MatrixError.unrecognized(404);
    }

    private Route v1(String method, List<String> r) throws MatrixError {
        int n = r.size();
        if (n >= 4 && r.get(0).equals("rooms") && r.get(2).equals("relations") && n <= 6) {
            return on(method, "GET", "relations", true, reads::relations);
        }
        if (n >= 2 && r.get(0).equals("media")) {
            return switch (r.get(1)) {
                case "config" -> on(method, "GET", "media_config", true, media::config);
                case "download" -> on(method, "GET", "download", true, media::download);
                case "thumbnail" -> on(method, "GET", "thumbnail", true, media::thumbnail);
                default -> throw MatrixError.unrecognized(404);
            };
        }
        throw MatrixError.unrecognized(404);
    }

    private static Route on(String method, String expected, String name, boolean auth, Endpoint e) throws MatrixError {
        if (!method.equals(expected)) throw MatrixError.unrecognized(405);
        return new Route(name, auth, e);
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode versions() {
        var n = Homeserver.JSON.createObjectNode();
        var v = n.putArray("versions");
        for (String s :
                List.of("v1.1", "v1.2", "v1.3", "v1.4", "v1.5", "v1.6", "v1.7", "v1.8", "v1.9", "v1.10", "v1.11"))
            v.add(s);
        n.putObject("unstable_features");
        return n;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null) return q;
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            q.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    private static void write(HttpExchange ex, Answer a) throws IOException {
        ex.getResponseHeaders().set("Content-Type", a.contentType());
        a.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
        if (a.body().length > 0) ex.getResponseBody().write(a.body());
    }
}
