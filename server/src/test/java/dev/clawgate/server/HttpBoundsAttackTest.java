package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.RequestBounds;
import dev.clawgate.testkit.openai.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the HTTP server's bounds with a raw client against the real gateway, its Telegram and generic webhook
 * channels mounted (SPEC OP-10; OP-3 for the routes, CH-10, CH-2, CH-3): oversized bodies on every route, malformed
 * bodies, slow clients, too many connections, oversized web chat messages. Before the fix a 10 MB body was read and
 * stored and never answered, a declared length was waited for, and a client trickling its headers or body held its
 * connection for ever.
 */
class HttpBoundsAttackTest extends TelegramGatewayFixture {
    private static final int LIMIT = 64 * 1024;
    private static final String TG_SECRET = "hook-secret_123";
    private static final String TG_PATH = "/webhooks/telegram";
    private static final String WH_SECRET = "generic-webhook-secret-0123456789";
    private static final String WH_PATH = "/webhooks/generic";

    private long recorded() {
        return gateway.store().inbox().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** Both webhook channels mounted, and {@code bounds}. */
    private int serve(RequestBounds bounds) throws Exception {
        ClawgateConfig c = config(Map.of(
                        "mode", "webhook", "webhook_url", "https://bot.example" + TG_PATH, "webhook_secret", TG_SECRET))
                .withChannel(new ChannelSettings(
                        "webhook",
                        OPEN,
                        Map.of(),
                        Map.of("path", WH_PATH, "secret", WH_SECRET, "callback_url", "http://127.0.0.1:9/replies"),
                        Map.of(),
                        ChannelOutput.defaults()));
        int port = serve(c.withGateway(c.gateway().withBounds(bounds)));
        await().until(() -> !tg.webhookUrl().isEmpty());
        return port;
    }

    private static RequestBounds bounds(Duration readTimeout, int maxConnections) {
        return new RequestBounds(LIMIT, maxConnections, readTimeout, Duration.ofSeconds(30));
    }

    /** Sends {@code piece} on a connection every {@code everyMs} until stopped, or until the server closes it. */
    private static final class Trickle {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        Trickle(RawHttp connection, String piece, long everyMs) {
            thread = Thread.ofVirtual().start(() -> {
                try {
                    while (!stop.get()) {
                        connection.send(piece);
                        Thread.sleep(everyMs);
                    }
                } catch (IOException | InterruptedException cut) {
                    // the server closed it: the trickle ends
                }
            });
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    static String sign(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(WH_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "X-Clawgate-Signature: sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    /** An oversized request to a route: its method and target, and the headers that get it past every other check. */
    private record Target(String name, String method, String target, List<String> headers, int expected) {}

    private static List<Target> everyRoute(int port) {
        List<Target> out = new ArrayList<>();
        for (GatewayRoutes.Route r : GatewayRoutes.all()) {
            List<String> h = new ArrayList<>(r.headers());
            h.add("Content-Type: application/json");
            out.add(new Target(r.toString(), r.method(), r.target(), h, 413));
        }
        out.add(new Target("GET /healthz", "GET", "/healthz", List.of(), 413));
        out.add(new Target(
                "generic webhook",
                "POST",
                WH_PATH,
                List.of("Content-Type: application/json", "X-Clawgate-Signature: sha256=00"),
                413));
        // Telegram repeats any answer but 2xx: an update sent with our secret is dropped with a 200 (and logged)
        out.add(new Target(
                "telegram webhook with its secret",
                "POST",
                TG_PATH,
                List.of("Content-Type: application/json", "X-Telegram-Bot-Api-Secret-Token: " + TG_SECRET),
                200));
        out.add(new Target(
                "telegram webhook without its secret",
                "POST",
                TG_PATH,
                List.of("Content-Type: application/json"),
                401));
        return out;
    }

    @Test
    void aDeclaredOversizedBodyIsAnsweredOnEveryRouteWithoutWaitingForIt() throws Exception {
        // SPEC OP-10, OP-3, CH-3: the answer comes from the Content-Length alone; the body is never sent, and a
        // server that waited for it would answer only after read_timeout (30 s here, past the client's 15 s)
        int port = serve(bounds(Duration.ofSeconds(30), 512));
        SoftAssertions soft = new SoftAssertions();
        for (Target t : everyRoute(port)) {
            for (long declared : new long[] {LIMIT + 1L, 10_000_000L, Long.MAX_VALUE / 2}) {
                List<String> h = new ArrayList<>(t.headers());
                h.add("Content-Length: " + declared);
                try (RawHttp c = new RawHttp(port)) {
                    c.send(RawHttp.head(t.method(), t.target(), "127.0.0.1:" + port, h.toArray(String[]::new)));
                    RawHttp.Response r = c.response();
                    soft.assertThat(r.status())
                            .as("%s declaring %d bytes", t.name(), declared)
                            .isEqualTo(t.expected());
                    if (t.expected() == 413)
                        soft.assertThat(r.body()).as(t.name()).contains(String.valueOf(LIMIT));
                }
            }
        }
        soft.assertAll();
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
        assertThat(tg.sentTo(dm)).isEmpty();
    }

    @Test
    void aChunkedBodyIsCutOffOnceItPassesTheLimitOnEveryRoute() throws Exception {
        // SPEC OP-10: a body of unknown length is read only up to the limit
        int port = serve(bounds(Duration.ofSeconds(30), 512));
        SoftAssertions soft = new SoftAssertions();
        byte[] chunk = "x".repeat(8 * 1024).getBytes(StandardCharsets.US_ASCII);
        for (Target t : everyRoute(port)) {
            List<String> h = new ArrayList<>(t.headers());
            h.add("Transfer-Encoding: chunked");
            try (RawHttp c = new RawHttp(port)) {
                c.send(RawHttp.head(t.method(), t.target(), "127.0.0.1:" + port, h.toArray(String[]::new)));
                try {
                    for (int sent = 0; sent <= LIMIT; sent += chunk.length) {
                        c.send(Integer.toHexString(chunk.length) + "\r\n");
                        c.send(chunk);
                        c.send("\r\n");
                    }
                } catch (IOException closedEarly) {
                    // the server may answer and close before the last chunks: that is the point
                }
                soft.assertThat(c.response().status()).as(t.name()).isEqualTo(t.expected());
            }
        }
        soft.assertAll();
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void aBodyOfExactlyTheLimitIsReadAndAnswered() throws Exception {
        // SPEC OP-10: the limit is inclusive; CH-10
        int port = serve(bounds(Duration.ofSeconds(30), 512));
        String head = "{\"model\":\"clawgate\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],"
                + "\"user\":\"padded\",\"pad\":\"";
        String json = head + "p".repeat(LIMIT - head.length() - 2) + "\"}";
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        assertThat(body).hasSize(LIMIT);
        model.enqueue(Reply.text("read it all"));
        RawHttp.Response r = RawHttp.exchange(
                port, "POST", "/v1/chat/completions", "127.0.0.1:" + port, body, "Content-Type: application/json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("read it all");
    }

    @Test
    void malformedBodiesGetAClearFourHundredOnEveryRouteThatReadsOneAndRecordNothing() throws Exception {
        // SPEC CH-10, CH-3, OP-10: bad input gets a clear error, never a 500 or a hang, and loses nothing
        int port = serve(bounds(Duration.ofSeconds(30), 512));
        List<byte[]> bodies = new ArrayList<>(List.of(
                "{not json".getBytes(StandardCharsets.UTF_8),
                "[]".getBytes(StandardCharsets.UTF_8),
                "null".getBytes(StandardCharsets.UTF_8),
                "{\"messages\":{}}".getBytes(StandardCharsets.UTF_8),
                "{\"messages\":[{\"role\":\"user\",\"content\":42}]}".getBytes(StandardCharsets.UTF_8),
                new byte[] {'{', '"', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'},
                new byte[0],
                ("[".repeat(20_000) + "]".repeat(20_000)).getBytes(StandardCharsets.UTF_8),
                ("{\"messages\":[{\"role\":\"user\",\"content\":\"" + "\\ud800".repeat(10) + "\"}")
                        .getBytes(StandardCharsets.UTF_8)));
        SoftAssertions soft = new SoftAssertions();
        for (byte[] body : bodies) {
            String what = new String(body, 0, Math.min(body.length, 30), StandardCharsets.UTF_8);
            RawHttp.Response api = RawHttp.exchange(
                    port, "POST", "/v1/chat/completions", "127.0.0.1:" + port, body, "Content-Type: application/json");
            soft.assertThat(api.status()).as("API with %s", what).isEqualTo(400);
            soft.assertThat(api.body()).as("API with %s", what).contains("\"error\"");
            RawHttp.Response webhook = RawHttp.exchange(
                    port, "POST", WH_PATH, "127.0.0.1:" + port, body, "Content-Type: application/json", sign(body));
            soft.assertThat(webhook.status()).as("webhook with %s", what).isEqualTo(400);
            RawHttp.Response telegram = RawHttp.exchange(
                    port,
                    "POST",
                    TG_PATH,
                    "127.0.0.1:" + port,
                    body,
                    "Content-Type: application/json",
                    "X-Telegram-Bot-Api-Secret-Token: " + TG_SECRET);
            soft.assertThat(telegram.status()).as("telegram with %s", what).isIn(200, 400);
        }
        soft.assertAll();
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void aClientThatNeverFinishesItsHeadersOrTricklesThemIsCutOff() throws Exception {
        // SPEC OP-10 (read timeout): a trickle resets an idle timeout, so the head has a deadline of its own
        int port = serve(bounds(Duration.ofSeconds(1), 512));
        try (RawHttp silent = new RawHttp(port);
                RawHttp trickler = new RawHttp(port)) {
            silent.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            trickler.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            Trickle drip = new Trickle(trickler, "a", 100);
            try {
                // meanwhile other callers are served
                assertThat(RawHttp.get(port, "/healthz", "127.0.0.1:" + port).status())
                        .isEqualTo(200);
                await().atMost(Duration.ofSeconds(15)).until(silent::closedByServer);
                await().atMost(Duration.ofSeconds(15)).until(trickler::closedByServer);
            } finally {
                drip.stop();
            }
        }
        assertThat(RawHttp.get(port, "/healthz", "127.0.0.1:" + port).status()).isEqualTo(200);
    }

    @Test
    void aBodyTrickledOrPromisedAndNeverSentIsAnswered408AndRecordsNothing() throws Exception {
        // SPEC OP-10 (read timeout), CH-10: the body has a deadline; no thread waits on it
        int port = serve(bounds(Duration.ofSeconds(1), 512));
        byte[] body = GatewayRoutes.CHAT_BODY.getBytes(StandardCharsets.UTF_8);
        String head = RawHttp.head(
                "POST",
                "/v1/chat/completions",
                "127.0.0.1:" + port,
                "Content-Type: application/json",
                "Content-Length: " + body.length);
        try (RawHttp promised = new RawHttp(port);
                RawHttp trickled = new RawHttp(port)) {
            promised.send(head);
            trickled.send(head);
            AtomicBoolean stop = new AtomicBoolean();
            Thread drip = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < body.length && !stop.get(); i++) {
                        trickled.send(new byte[] {body[i]});
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException cut) {
                    // answered and closed: the trickle ends
                }
            });
            try {
                RawHttp.Response never = promised.response();
                assertThat(never.status()).isEqualTo(408);
                assertThat(never.body()).contains("read_timeout");
                assertThat(trickled.response().status()).isEqualTo(408);
            } finally {
                stop.set(true);
                drip.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
        assertThat(recorded()).isZero();
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void pastTheConnectionCapANewCallerWaitsUntilASlowOneIsCutOff() throws Exception {
        // SPEC OP-10 (connection cap, read timeout): held connections cannot grow without bound, and they do not last
        int cap = 4;
        // a head deadline long enough that a loaded machine still sees the late caller wait before it is served
        int port = serve(bounds(Duration.ofSeconds(6), cap));
        List<RawHttp> held = new ArrayList<>();
        try {
            for (int i = 0; i < cap; i++) {
                RawHttp c = new RawHttp(port);
                c.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
                held.add(c);
            }
            try (RawHttp late = new RawHttp(port)) {
                late.send(RawHttp.head("GET", "/healthz", "127.0.0.1:" + port));
                // not served while the cap is taken...
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(3))
                        .until(() -> !late.closedByServer() && late.available() == 0);
                // ...and served once the head deadline freed a place
                RawHttp.Response r = late.response();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("ok");
            }
            for (RawHttp c : held) assertThat(c.closedByServer()).isTrue();
        } finally {
            for (RawHttp c : held) c.close();
        }
    }

    @Test
    void aCallerThatStopsReadingItsAnswerIsCutOffByTheWriteTimeoutAndOthersAreServedMeanwhile() throws Exception {
        // SPEC OP-10 (write timeout, connection cap): a caller that asks and never reads cannot hold a place
        // for ever; the gateway answers others while the stalled write waits. The answer is far larger than
        // the socket buffers, so only a write timeout can end it.
        int cap = 2;
        int port = serve(new RequestBounds(LIMIT, cap, Duration.ofSeconds(30), Duration.ofSeconds(1)));
        String answer = "z".repeat(8 * 1024 * 1024);
        model.enqueue(Reply.text(answer));
        byte[] body = GatewayRoutes.CHAT_BODY.getBytes(StandardCharsets.UTF_8);
        String host = "127.0.0.1:" + port;
        try (Socket stalled = new Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", port));
            OutputStream out = stalled.getOutputStream();
            out.write(RawHttp.head(
                            "POST",
                            "/v1/chat/completions",
                            host,
                            "Content-Type: application/json",
                            "Content-Length: " + body.length)
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> model.chatRequests().size() == 1);
            // the gateway goes on answering others while that answer waits on its reader
            assertThat(RawHttp.get(port, "/healthz", host).status()).isEqualTo(200);
            // the other place is held by a caller trickling its head (its deadline, 30 s, lies past this test):
            // only the write timeout of the stalled caller can free a place for the next one
            try (RawHttp holder = new RawHttp(port)) {
                holder.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                Trickle drip = new Trickle(holder, "a", 200);
                try {
                    // the turn ends and its answer is handed to the connection that does not read
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> gateway.dispatcher().activeRuns() == 0);
                    RawHttp.Response next = RawHttp.get(port, "/healthz", host);
                    assertThat(next.status()).isEqualTo(200);
                    assertThat(next.body()).isEqualTo("ok");
                    assertThat(holder.closedByServer())
                            .as("the trickling holder still has its place")
                            .isFalse();
                } finally {
                    drip.stop();
                }
            }
            // what the stalled caller can still read is a cut answer: the server closed its end
            long read = 0;
            stalled.setSoTimeout(15_000);
            InputStream in = stalled.getInputStream();
            byte[] buf = new byte[64 * 1024];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) read += n;
            } catch (SocketException reset) {
                // the server closed with unsent bytes: the connection is reset, as it should be
            }
            assertThat(read).isLessThan(answer.length());
        }
        assertThat(RawHttp.get(port, "/healthz", host).status()).isEqualTo(200);
    }

    @Test
    void aTurnLongerThanEveryTimeoutIsStillAnsweredWholeAndStreamed() throws Exception {
        // SPEC OP-10, CH-10: the timeouts bound a caller's reads and writes, never the time a turn takes to answer
        int port = serve(new RequestBounds(LIMIT, 512, Duration.ofMillis(500), Duration.ofMillis(500)));
        model.enqueue(Reply.text("slow but whole").delayBefore(Duration.ofSeconds(2)));
        GatewayHarness.Reply whole = GatewayHarness.chat(port, "patient", "take your time", null);
        assertThat(whole.status()).isEqualTo(200);
        assertThat(whole.content()).isEqualTo("slow but whole");
        model.enqueue(Reply.text("slow but streamed").delayBefore(Duration.ofSeconds(2)));
        List<String> streamed = GatewayHarness.chatStream(port, "patient", "again");
        assertThat(streamed.getLast()).isEqualTo("finish:stop");
        assertThat(String.join("", streamed.subList(0, streamed.size() - 1))).isEqualTo("slow but streamed");
    }

    @Test
    void aWebChatSocketOutlivesTheReadTimeoutOfTheRequestThatOpenedIt() throws Exception {
        // SPEC OP-10, CH-2: the head deadline is for HTTP requests; an upgraded socket is not cut by it
        int port = serve(bounds(Duration.ofMillis(300), 512));
        model.enqueue(Reply.text("still connected"));
        try (WebChatClient page = WebChatClient.open(port, GatewayRoutes.CLIENT, null)) {
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> !page.closed.isDone());
            page.send("later", "are you there?");
            List<com.fasterxml.jackson.databind.JsonNode> frames = page.untilDone("later");
            assertThat(frames.get(frames.size() - 2).path("text").asText()).isEqualTo("still connected");
        }
    }

    @Test
    void aWebChatMessageOverTheLimitClosesItsSocketAndTheGatewayGoesOn() throws Exception {
        // SPEC OP-10, CH-2: gateway.max_body_bytes caps a socket message, in one frame or in many
        int port = serve(bounds(Duration.ofSeconds(30), 512));
        try (WebChatClient page = WebChatClient.open(port, GatewayRoutes.CLIENT, null)) {
            page.sendRaw("{\"type\":\"message\",\"id\":\"big\",\"text\":\"" + "x".repeat(LIMIT) + "\"}");
            assertThat(page.closed.get(15, TimeUnit.SECONDS)).isEqualTo(1009);
        }
        try (WebChatClient page = WebChatClient.open(port, GatewayRoutes.CLIENT, null)) {
            try {
                page.sendFragmented(
                        "{\"type\":\"message\",\"id\":\"parts\",\"text\":\"" + "y".repeat(2 * LIMIT) + "\"}", 16);
            } catch (CompletionException closedEarly) {
                // the server closed the socket before the last part: that is the point
            }
            try {
                assertThat(page.closed.get(15, TimeUnit.SECONDS)).isEqualTo(1009);
            } catch (java.util.concurrent.ExecutionException brokenWhileSending) {
                // the server dropped the connection while the client was still writing parts (a broken pipe before
                // the client read the 1009): the message was refused all the same
                assertThat(brokenWhileSending.getCause()).isInstanceOf(java.io.IOException.class);
            }
        }
        assertThat(recorded()).isZero();
        model.enqueue(Reply.text("still here"));
        try (WebChatClient page = WebChatClient.open(port, GatewayRoutes.CLIENT, null)) {
            page.send("fits", "z".repeat(LIMIT / 2));
            List<com.fasterxml.jackson.databind.JsonNode> frames = page.untilDone("fits");
            assertThat(frames.get(frames.size() - 2).path("text").asText()).isEqualTo("still here");
        }
    }
}
