package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.testkit.openai.Reply;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Attacks on who may call the gateway, as a web page or a DNS-rebound name would make them, with a raw HTTP client
 * against the real server (SPEC OP-3; CH-10 for the API, CH-2 for the web chat). Before the fix the API,
 * {@code /metrics}, {@code /readyz} and the chat page answered all of them, and a cross-site {@code text/plain} POST
 * ran a whole turn.
 */
class HttpCallerAttackTest extends GatewayFixture {
    private static final String TOKEN = "gw-token-0123456789";

    private long recorded() {
        return gateway.store().inbox().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private static RawHttp.Response call(int port, GatewayRoutes.Route r, String host, String... extra)
            throws IOException {
        List<String> headers = new ArrayList<>(r.headers());
        headers.addAll(List.of(extra));
        if (!r.posts()) {
            try (RawHttp c = new RawHttp(port)) {
                c.send(RawHttp.head(r.method(), r.target(), host, headers.toArray(String[]::new)));
                return c.response();
            }
        }
        boolean typed = headers.stream().anyMatch(h -> h.regionMatches(true, 0, "Content-Type:", 0, 13));
        if (!typed) headers.add("Content-Type: application/json");
        return RawHttp.exchange(port, r.method(), r.target(), host, r.body(), headers.toArray(String[]::new));
    }

    /** Origins a page of another site, a sandboxed frame or another local port sends. */
    private static List<String> foreignOrigins(int port) {
        return List.of(
                "http://evil.example",
                "null",
                "http://127.0.0.1:" + (port == 65535 ? 1 : port + 1),
                "http://localhost:" + (port == 65535 ? 1 : port + 1),
                "http://localhost.evil.example:" + port,
                "http://127.0.0.1.nip.io:" + port,
                "http://evil.example:" + port,
                "file://");
    }

    /** Host names a DNS-rebinding page reaches a loopback port with. */
    private static List<String> reboundHosts(int port) {
        return List.of(
                "evil.example:" + port,
                "evil.example",
                "127.0.0.1.nip.io:" + port,
                "localhost.evil.example:" + port,
                "7f000001.rbndr.example:" + port,
                "cafe:" + port);
    }

    @Test
    void aPageOfAnotherSiteIsRefusedOnEveryRouteAndNothingRuns() throws Exception {
        // SPEC OP-3, CH-10, CH-2: a foreign Origin is refused everywhere but /healthz and webhooks
        int port = serve(config());
        String host = "127.0.0.1:" + port;
        SoftAssertions soft = new SoftAssertions();
        int tried = 0;
        for (GatewayRoutes.Route r : GatewayRoutes.all()) {
            for (String origin : foreignOrigins(port)) {
                tried++;
                soft.assertThat(call(port, r, host, "Origin: " + origin).status())
                        .as("%s from %s", r, origin)
                        .isEqualTo(403);
            }
        }
        soft.assertAll();
        assertThat(tried)
                .isEqualTo(GatewayRoutes.all().size() * foreignOrigins(port).size());
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void aReboundHostNameIsRefusedOnEveryRouteOfALoopbackGatewayWithoutAToken() throws Exception {
        // SPEC OP-3: a DNS name rebound to 127.0.0.1 must not turn the loopback-only gateway into one any page can read
        int port = serve(config());
        SoftAssertions soft = new SoftAssertions();
        for (GatewayRoutes.Route r : GatewayRoutes.all()) {
            for (String host : reboundHosts(port)) {
                soft.assertThat(call(port, r, host).status())
                        .as("%s with Host %s", r, host)
                        .isEqualTo(403);
            }
            // HTTP/1.1 without a Host at all: Jetty refuses it before any route
            soft.assertThat(call(port, r, null).status())
                    .as("%s without Host", r)
                    .isEqualTo(400);
        }
        soft.assertAll();
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void aCrossSiteTextPlainPostIsRefusedBeforeAnythingIsRecorded() throws Exception {
        // SPEC OP-3, CH-10: the probe that ran a whole turn with tools: text/plain needs no CORS preflight
        int port = serve(config());
        byte[] body = GatewayRoutes.CHAT_BODY.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response crossSite = RawHttp.exchange(
                port,
                "POST",
                "/v1/chat/completions",
                "evil.example:" + port,
                body,
                "Origin: http://evil.example",
                "Content-Type: text/plain");
        assertThat(crossSite.status()).isEqualTo(403);
        assertThat(crossSite.body()).contains("cross-origin");
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void everyBodyTypeAPageMaySendWithoutAPreflightIsRefusedOnEveryPostingRoute() throws Exception {
        // SPEC OP-3, CH-10: only application/json is taken; a form or text/plain body is refused from any name
        int port = serve(config());
        String host = "127.0.0.1:" + port;
        List<String> types = List.of(
                "text/plain",
                "text/plain; charset=utf-8",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=xyz",
                "text/plain; charset=application/json",
                "application/jsonp",
                "");
        SoftAssertions soft = new SoftAssertions();
        for (GatewayRoutes.Route r : GatewayRoutes.posting()) {
            for (String type : types) {
                RawHttp.Response resp = type.isEmpty()
                        ? RawHttp.exchange(port, r.method(), r.target(), host, r.body())
                        : call(port, r, host, "Content-Type: " + type);
                soft.assertThat(resp.status()).as("%s as '%s'", r, type).isEqualTo(415);
                soft.assertThat(resp.body()).as("%s as '%s'", r, type).contains("application/json");
            }
        }
        soft.assertAll();
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void theGatewaysOwnPagesAndLoopbackClientsStillReachEveryRoute() throws Exception {
        // SPEC OP-3, CH-10, CH-2: the checks refuse only what they must: same-origin loopback calls are answered
        int port = serve(config());
        SoftAssertions soft = new SoftAssertions();
        for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "LOCALHOST:" + port)) {
            for (GatewayRoutes.Route r : GatewayRoutes.all()) {
                if (!r.mounted()) continue;
                if (r.posts()) model.enqueue(Reply.text("answered"));
                String sameOrigin = "Origin: http://" + host;
                int status = call(port, r, host, sameOrigin).status();
                soft.assertThat(status)
                        .as("%s from its own page at %s", r, host)
                        .isIn(200, 101);
            }
        }
        soft.assertAll();
    }

    @Test
    void withATokenAForeignOriginIsStillRefusedAndTheTokenGuardsEveryOtherName() throws Exception {
        // SPEC OP-3: with gateway.auth_token the token guards any Host; another site's page is refused anyway
        ClawgateConfig base = config();
        int port = serve(base.withGateway(new GatewaySettings(dir.resolve("data"), "127.0.0.1:0", TOKEN)));
        SoftAssertions soft = new SoftAssertions();
        for (GatewayRoutes.Route r : GatewayRoutes.all()) {
            String auth = "Authorization: Bearer " + TOKEN;
            soft.assertThat(call(port, r, "127.0.0.1:" + port, auth, "Origin: http://evil.example")
                            .status())
                    .as("%s with the token from another site", r)
                    .isEqualTo(403);
            if (!r.mounted()
                    || r.target().startsWith("/chat/ws")
                    || List.of("/chat", "/chat/chat.js", "/chat/chat.css").contains(r.target())) {
                continue;
            }
            soft.assertThat(call(port, r, "gateway.example:" + port).status())
                    .as("%s without the token", r)
                    .isEqualTo(401);
            if (r.posts()) model.enqueue(Reply.text("answered"));
            soft.assertThat(call(port, r, "gateway.example:" + port, auth).status())
                    .as("%s with the token", r)
                    .isEqualTo(200);
        }
        soft.assertAll();
    }
}
