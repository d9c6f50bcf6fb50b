package dev.clawgate.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.slack.AppEndpoint.Answer;
import dev.clawgate.testkit.slack.AppEndpoint.Received;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake pushes the Events API as Slack does (SPEC CH-4): docs.slack.dev/apis/events-api (callback fields,
 * "Responding to events" within 3 s, "Failure conditions" and retries),
 * docs.slack.dev/authentication/verifying-requests-from-slack (the v0 signature),
 * docs.slack.dev/reference/events/message and app_mention. The app is a plain HTTP server here.
 */
class SlackEventsApiTest {
    private FakeSlack slack;
    private AppEndpoint app;
    private SlackUser alice;
    private SlackChannel general;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        app = new AppEndpoint();
        slack.deliverEventsTo(app.url());
        slack.eventRetryDelays(Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(100));
        alice = slack.user("alice");
        general = slack.channel("general");
    }

    @AfterEach
    void stop() {
        slack.close();
        app.close();
    }

    private static JsonNode json(Received r) throws Exception {
        return SlackApi.JSON.readTree(r.body());
    }

    /** The signature computed here from the reference's recipe, not with the fake's code. */
    private static String expectedSignature(String secret, String timestamp, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
        return "v0=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    @Test
    void everyPushIsSignedWithTheV0HmacOfTimestampAndBody() throws Exception {
        // SPEC CH-4: X-Slack-Signature = v0=HMAC-SHA256(signing secret, "v0:<ts>:<body>")
        slack.post(slack.dm(alice), alice, "hello");
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 1);
        Received r = app.received().getFirst();
        String ts = r.headers().get("x-slack-request-timestamp");
        assertThat(Long.parseLong(ts))
                .isCloseTo(System.currentTimeMillis() / 1000, org.assertj.core.data.Offset.offset(5L));
        assertThat(r.headers().get("x-slack-signature"))
                .isEqualTo(expectedSignature(slack.signingSecret(), ts, r.body()));
        assertThat(r.headers().get("content-type")).startsWith("application/json");
        JsonNode cb = json(r);
        assertThat(cb.path("type").asText()).isEqualTo("event_callback");
        assertThat(cb.path("event_id").asText()).startsWith("Ev");
        assertThat(cb.path("authorizations").get(0).path("user_id").asText())
                .isEqualTo(slack.bot().id());
        JsonNode event = cb.path("event");
        assertThat(event.path("type").asText()).isEqualTo("message");
        assertThat(event.path("channel_type").asText()).isEqualTo("im");
        assertThat(event.path("user").asText()).isEqualTo(alice.id());
        assertThat(event.path("text").asText()).isEqualTo("hello");
    }

    @Test
    void urlVerificationPassesOnlyWhenTheChallengeIsEchoed() throws Exception {
        // SPEC CH-4: url_verification is answered with its challenge (reference/events/url_verification)
        app.answer(r -> {
            try {
                return new Answer(200, json(r).path("challenge").asText(), Map.of("Content-Type", "text/plain"), 0);
            } catch (Exception e) {
                return Answer.status(500);
            }
        });
        assertThat(slack.verifyRequestUrl()).isTrue();
        app.answer(r -> new Answer(200, "{\"challenge\":\"something else\"}", Map.of(), 0));
        assertThat(slack.verifyRequestUrl()).isFalse();
    }

    @Test
    void aNon2xxAnswerIsRetriedWithTheRetryNumberAndReason() throws Exception {
        // SPEC CH-4, IN-1: the same event_id comes again with X-Slack-Retry-Num / X-Slack-Retry-Reason
        AtomicInteger seen = new AtomicInteger();
        app.answer(r -> seen.incrementAndGet() <= 2 ? Answer.status(500) : Answer.ok());
        slack.post(general, alice, "hi");
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 3);
        List<Received> got = app.received();
        assertThat(got).extracting(r -> r.headers().get("x-slack-retry-num")).containsExactly(null, "1", "2");
        assertThat(got)
                .extracting(r -> r.headers().get("x-slack-retry-reason"))
                .containsExactly(null, "http_error", "http_error");
        assertThat(got)
                .extracting(r -> jsonUnchecked(r).path("event_id").asText())
                .containsOnly(json(got.getFirst()).path("event_id").asText());
        await().atMost(Duration.ofSeconds(10)).until(() -> slack.deliveries().size() == 3);
        assertThat(slack.deliveries()).extracting(EventDelivery::accepted).containsExactly(false, false, true);
    }

    @Test
    void anAnswerLaterThanThreeSecondsIsRetriedAsAnHttpTimeout() throws Exception {
        // SPEC CH-4: Slack waits 3 s for the 2xx, then retries without waiting for the late answer
        AtomicInteger seen = new AtomicInteger();
        app.answer(r -> seen.incrementAndGet() == 1 ? new Answer(200, "", Map.of(), 3_500) : Answer.ok());
        slack.post(general, alice, "slow");
        await().atMost(Duration.ofSeconds(10)).until(() -> slack.deliveries().size() == 2);
        assertThat(slack.deliveries().getFirst().failure()).isEqualTo("http_timeout");
        assertThat(app.received().get(1).headers().get("x-slack-retry-reason")).isEqualTo("http_timeout");
        assertThat(slack.deliveries().get(1).accepted()).isTrue();
    }

    @Test
    void aFailingAnswerWithNoRetryIsNotRetriedAndOthersStopAfterThreeRetries() throws Exception {
        // SPEC CH-4: X-Slack-No-Retry: 1 turns retries off; otherwise at most three retries
        app.answer(r -> new Answer(503, "", Map.of("X-Slack-No-Retry", "1"), 0));
        slack.post(general, alice, "one");
        await().atMost(Duration.ofSeconds(5)).until(() -> slack.deliveries().size() == 1);
        app.answer(r -> Answer.status(500));
        slack.post(general, alice, "two");
        await().atMost(Duration.ofSeconds(5)).until(() -> slack.deliveries().size() == 5);
        assertThat(slack.deliveries().subList(1, 5))
                .extracting(EventDelivery::retryNum)
                .containsExactly(0, 1, 2, 3);
        assertThat(app.received()).hasSize(5);
    }

    @Test
    void aMentionComesAsAMessageAndAnAppMentionWithTheirOwnEventIdsForOneTs() throws Exception {
        // SPEC CH-4, IN-1: one mention, two events (different event_id, same channel and ts)
        String ts = slack.post(general, alice, "hey " + slack.bot().mention() + " what's up");
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 2);
        List<JsonNode> callbacks =
                app.received().stream().map(SlackEventsApiTest::jsonUnchecked).toList();
        assertThat(callbacks)
                .extracting(c -> c.path("event").path("type").asText())
                .containsExactlyInAnyOrder("message", "app_mention");
        assertThat(callbacks)
                .extracting(c -> c.path("event").path("ts").asText())
                .containsOnly(ts);
        assertThat(callbacks)
                .extracting(c -> c.path("event").path("channel").asText())
                .containsOnly(general.id());
        assertThat(callbacks.get(0).path("event_id").asText())
                .isNotEqualTo(callbacks.get(1).path("event_id").asText());
        slack.mentionBeforeMessage(true);
        slack.post(general, alice, slack.bot().mention() + " again");
        assertThat(slack.events().subList(2, 4))
                .extracting(e -> e.path("event").path("type").asText())
                .containsExactly("app_mention", "message");
    }

    @Test
    void aDmMentionIsOnlyAMessageAndAChannelWithoutTheBotSendsNothing() throws Exception {
        // SPEC CH-4: app_mention is not sent in DMs; message.channels needs the bot in the channel
        slack.post(slack.dm(alice), alice, slack.bot().mention() + " hi");
        slack.post(slack.channelWithoutBot("random"), alice, slack.bot().mention() + " hi");
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 1);
        assertThat(slack.events())
                .extracting(e -> e.path("event").path("type").asText())
                .containsExactly("message");
    }

    @Test
    void theBotsOwnPostsEditsAndDeletionsComeAsEventsTooMarkedAsSuch() throws Exception {
        // SPEC CH-4: the bot's own messages (bot_id) and message_changed / message_deleted must start no turn
        new SlackApi(slack).bot("chat.postMessage", "{\"channel\":\"" + general.id() + "\",\"text\":\"from bot\"}");
        String ts = slack.post(general, alice, "typo");
        String thread = slack.reply(general, ts, alice, "in thread");
        slack.edit(general, ts, "fixed");
        slack.delete(general, ts);
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 5);
        List<JsonNode> events =
                slack.events().stream().map(e -> e.path("event")).toList();
        assertThat(events.get(0).path("bot_id").asText()).isEqualTo(slack.bot().botId());
        assertThat(events.get(1).has("bot_id")).isFalse();
        assertThat(events.get(2).path("thread_ts").asText()).isEqualTo(ts);
        assertThat(events.get(2).path("ts").asText()).isEqualTo(thread);
        assertThat(events.get(2).path("parent_user_id").asText()).isEqualTo(alice.id());
        assertThat(events.get(3).path("subtype").asText()).isEqualTo("message_changed");
        assertThat(events.get(3).path("hidden").asBoolean()).isTrue();
        assertThat(events.get(3).path("message").path("text").asText()).isEqualTo("fixed");
        assertThat(events.get(4).path("subtype").asText()).isEqualTo("message_deleted");
        assertThat(events.get(4).path("deleted_ts").asText()).isEqualTo(ts);
    }

    @Test
    void pushOnceSendsExactlyTheGivenSignatureAndTimestampAndLogsTheAnswer() throws Exception {
        // SPEC CH-4: bad signatures and stale timestamps are the app's to refuse; the fake sends them as told
        app.answer(r -> Answer.status(401));
        byte[] body = "{\"type\":\"event_callback\",\"event_id\":\"Ev1\"}".getBytes(StandardCharsets.UTF_8);
        long stale = System.currentTimeMillis() / 1000 - 600;
        FakeSlack.EventAnswer a = slack.pushOnce(body, stale, "v0=deadbeef");
        assertThat(a.status()).isEqualTo(401);
        Received r = app.received().getFirst();
        assertThat(r.headers().get("x-slack-request-timestamp")).isEqualTo(Long.toString(stale));
        assertThat(r.headers().get("x-slack-signature")).isEqualTo("v0=deadbeef");
        assertThat(slack.calls()).extracting(c -> c.headers().get(":status")).containsExactly("401");
    }

    @Test
    void redeliverSendsTheSameEventAgainAsARetry() throws Exception {
        // SPEC CH-4, IN-1: a retried event has the event_id already seen
        slack.post(general, alice, "once");
        await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 1);
        String eventId = json(app.received().getFirst()).path("event_id").asText();
        slack.redeliver(eventId);
        Received again = app.received().get(1);
        assertThat(json(again).path("event_id").asText()).isEqualTo(eventId);
        assertThat(again.headers().get("x-slack-retry-num")).isEqualTo("1");
    }

    @Test
    void eventsPublishedBeforeARequestUrlIsSetAreSentOnceItIs() throws Exception {
        // SPEC CH-4: nothing published is lost while the app is not configured yet
        try (FakeSlack fresh = FakeSlack.start("clawbot")) {
            SlackChannel c = fresh.channel("c");
            fresh.post(c, fresh.user("bob"), "early");
            assertThat(app.received()).isEmpty();
            fresh.deliverEventsTo(app.url());
            await().atMost(Duration.ofSeconds(5)).until(() -> app.received().size() == 1);
        }
    }

    private static JsonNode jsonUnchecked(Received r) {
        try {
            return json(r);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
