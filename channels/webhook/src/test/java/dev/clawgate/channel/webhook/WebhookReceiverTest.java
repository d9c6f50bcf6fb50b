package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

// The webhook's receive side: ack only after the inbox commit, duplicates, rejections (SPEC IN-3, IN-4, IN-1, IN-5).
class WebhookReceiverTest {
    private static final String SECRET = "0123456789abcdef-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BODY = "{\"id\":\"m-1\",\"sender\":\"alice\",\"chat\":\"alice\",\"text\":\"hello\"}";

    private final List<InboundMessage> accepted = new CopyOnWriteArrayList<>();
    private final WebhookChannel channel = new WebhookChannel(
            new WebhookChannelSettings(null, SECRET, "http://127.0.0.1:9/cb"),
            Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC));

    private WebhookRoute route() {
        assertThat(channel.webhookRoutes()).hasSize(1);
        return channel.webhookRoutes().getFirst();
    }

    private WebhookRoute.Response post(String body, String signature) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = signature == null
                ? Map.of("content-type", "application/json")
                : Map.of("content-type", "application/json", "x-clawgate-signature", signature);
        return route().handler().handle(new WebhookRoute.Request(headers, bytes, "127.0.0.1"));
    }

    private WebhookRoute.Response postSigned(String body) {
        return post(body, new WebhookSignature(SECRET).sign(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static JsonNode json(WebhookRoute.Response r) throws Exception {
        assertThat(r.contentType()).isEqualTo("application/json");
        return JSON.readTree(r.body());
    }

    @Test
    void theRouteIsAPostOnTheDefaultPath() {
        // SPEC IN-3: the server mounts the channel's route
        assertThat(route().method()).isEqualTo("POST");
        assertThat(route().path()).isEqualTo("/webhooks/generic");
    }

    @Test
    void aSignedMessageReachesTheSinkAndIsAnswered200WithItsInboxId() throws Exception {
        // SPEC IN-4
        channel.start(m -> {
            accepted.add(m);
            return InboundSink.Acceptance.recorded(41);
        });
        WebhookRoute.Response r = postSigned(BODY);
        assertThat(r.status()).isEqualTo(200);
        assertThat(json(r).path("inbox_id").asLong()).isEqualTo(41);
        assertThat(accepted).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo("m-1");
            assertThat(m.channel()).isEqualTo("webhook");
            assertThat(m.text()).isEqualTo("hello");
            assertThat(m.timestamp()).isEqualTo(Instant.parse("2026-03-04T05:06:07Z"));
        });
    }

    @Test
    void aSignedBodyThatCannotBeReadIsKeptAsUnreadableAndAnsweredForGood() throws Exception {
        // SPEC IN-4, CH-0: recorded as failed with its raw body, answered 400 (not retried); before, a sender id
        // with a line break was taken as it came, and a body nested too deep threw out of the parser
        List<dev.clawgate.core.store.UnreadableInbound> kept = new CopyOnWriteArrayList<>();
        channel.start(new InboundSink() {
            @Override
            public Acceptance accept(InboundMessage m) {
                accepted.add(m);
                return Acceptance.recorded(1);
            }

            @Override
            public void unreadable(dev.clawgate.core.store.UnreadableInbound u) {
                kept.add(u);
            }
        });
        String forged = "{\"id\":\"m-9\",\"sender\":\"alice\\nINFO forged log line\",\"chat\":\"c\",\"text\":\"hi\"}";
        String deep = "{\"id\":\"m-10\",\"sender\":\"a\",\"chat\":\"c\",\"text\":" + "[".repeat(5000);
        assertThat(postSigned(forged).status()).isEqualTo(400);
        WebhookRoute.Response r = postSigned(deep);
        assertThat(r.status()).isEqualTo(400);
        assertThat(json(r).path("error").asText()).contains("not JSON");
        assertThat(accepted).isEmpty();
        assertThat(kept).hasSize(2);
        assertThat(kept.getFirst().platformRef()).isEqualTo("m-9");
        // a body that is not JSON has no id to read: a hash of the body names it
        assertThat(kept.get(1).platformRef()).startsWith("body-");
        assertThat(kept.getFirst().reason()).contains("'sender'", "control characters");
        assertThat(kept.getFirst().raw()).isEqualTo(forged);
    }

    @Test
    void theAnswerWaitsUntilTheSinkHasCommitted() throws Exception {
        // SPEC IN-3 after_receive_record, IN-4: no 2xx before the sink returns
        CountDownLatch commit = new CountDownLatch(1);
        channel.start(m -> {
            try {
                commit.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return InboundSink.Acceptance.recorded(1);
        });
        AtomicReference<WebhookRoute.Response> answer = new AtomicReference<>();
        Thread poster = Thread.ofVirtual().start(() -> answer.set(postSigned(BODY)));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> answer.get() == null);
        commit.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> answer.get() != null);
        poster.join();
        assertThat(answer.get().status()).isEqualTo(200);
    }

    @Test
    void aDuplicateIsAnswered200SoThePlatformStopsRetrying() throws Exception {
        // SPEC IN-1, IN-4: a duplicate also gets 2xx
        channel.start(m -> InboundSink.Acceptance.DUPLICATE);
        WebhookRoute.Response r = postSigned(BODY);
        assertThat(r.status()).isEqualTo(200);
        assertThat(json(r).path("duplicate").asBoolean()).isTrue();
    }

    @Test
    void aStoreFailureIs503SoThePlatformRetries() throws Exception {
        // SPEC IN-4: a store failure gets 503
        channel.start(m -> {
            throw new StoreException("record inbound failed", new SQLException("disk I/O error"));
        });
        WebhookRoute.Response r = postSigned(BODY);
        assertThat(r.status()).isEqualTo(503);
        assertThat(json(r).path("error").asText()).contains("retry");
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).doesNotContain("disk I/O");
    }

    @Test
    void aClosingDispatcherIs503Too() {
        // SPEC IN-4: not acknowledged, so the platform redelivers after the restart
        channel.start(m -> {
            throw new IllegalStateException("dispatcher is closed");
        });
        assertThat(postSigned(BODY).status()).isEqualTo(503);
    }

    @Test
    void beforeStartTheChannelAnswers503AndReportsDown() {
        // SPEC IN-4
        assertThat(channel.health().healthy()).isFalse();
        assertThat(postSigned(BODY).status()).isEqualTo(503);
    }

    @Test
    void aBadOrMissingSignatureIs401CountedAndNeverStored() throws Exception {
        // SPEC IN-5: rejected webhook requests are counted and logged, not stored
        channel.start(m -> {
            accepted.add(m);
            return InboundSink.Acceptance.recorded(1);
        });
        WebhookRoute.Response forged =
                post(BODY, new WebhookSignature("another-secret-of-16+").sign(BODY.getBytes(StandardCharsets.UTF_8)));
        WebhookRoute.Response unsigned = post(BODY, null);
        WebhookRoute.Response tampered = post(
                BODY.replace("hello", "hellO"),
                new WebhookSignature(SECRET).sign(BODY.getBytes(StandardCharsets.UTF_8)));
        assertThat(List.of(forged, unsigned, tampered))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(401));
        assertThat(json(forged).path("error").asText()).contains("X-Clawgate-Signature");
        assertThat(channel.rejectedRequests()).isEqualTo(3);
        assertThat(accepted).isEmpty();
    }

    @Test
    void aMalformedSignedBodyIs400WithTheReasonAndNothingIsStored() throws Exception {
        // SPEC IN-4: malformed JSON or missing fields get 400, nothing stored
        channel.start(m -> {
            accepted.add(m);
            return InboundSink.Acceptance.recorded(1);
        });
        WebhookRoute.Response notJson = postSigned("{oops");
        WebhookRoute.Response noText = postSigned("{\"id\":\"m\",\"sender\":\"a\",\"chat\":\"a\"}");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(json(notJson).path("error").asText()).contains("not valid JSON");
        assertThat(noText.status()).isEqualTo(400);
        assertThat(json(noText).path("error").asText()).isEqualTo("field 'text' is missing");
        assertThat(accepted).isEmpty();
        assertThat(channel.rejectedRequests()).isZero();
    }
}
