package dev.clawgate.testkit.slack;

import static dev.clawgate.testkit.slack.SlackApi.args;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake Web API answers as Slack's reference says (SPEC CH-4): docs.slack.dev/reference/methods/* for arguments,
 * answers and errors, docs.slack.dev/apis/web-api for the envelope and tokens, docs.slack.dev/apis/web-api/rate-limits
 * for 429s. Driven by a plain HTTP client.
 */
class FakeSlackWebApiTest {
    private FakeSlack slack;
    private SlackApi api;
    private SlackUser alice;
    private SlackChannel general;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        api = new SlackApi(slack);
        alice = slack.user("alice");
        general = slack.channel("general");
    }

    @AfterEach
    void stop() {
        slack.close();
    }

    private JsonNode post(SlackChannel channel, String text) throws Exception {
        return api.bot("chat.postMessage", "{\"channel\":\"" + channel.id() + "\",\"text\":\"" + text + "\"}");
    }

    @Test
    void authTestNamesTheBotAndRefusesMissingWrongRevokedOrMismatchedTokens() throws Exception {
        // SPEC CH-4: the adapter learns its user id from auth.test; doctor tells a refused token apart
        JsonNode me = api.bot("auth.test", "{}");
        assertThat(me.path("ok").asBoolean()).isTrue();
        assertThat(me.path("user_id").asText()).isEqualTo(slack.bot().id());
        assertThat(me.path("bot_id").asText()).isEqualTo(slack.bot().botId());
        assertThat(api.json("auth.test", null, "{}").path("error").asText()).isEqualTo("not_authed");
        assertThat(api.json("auth.test", "xoxb-1-2-wrong", "{}").path("error").asText())
                .isEqualTo("invalid_auth");
        assertThat(api.json("auth.test", slack.appToken(), "{}").path("error").asText())
                .isEqualTo("not_allowed_token_type");
        slack.revokeBotToken();
        assertThat(api.bot("auth.test", "{}").path("error").asText()).isEqualTo("token_revoked");
        assertThat(slack.calls())
                .extracting(c -> c.headers().get(":token"))
                .containsExactly("bot", "none", "invalid", "app", "bot");
    }

    @Test
    void aTokenInsideAJsonBodyIsNotReadButAFormTokenIs() throws Exception {
        // SPEC CH-4: JSON bodies need the bearer header (docs.slack.dev/apis/web-api, "POST bodies")
        String json = "{\"token\":\"" + slack.botToken() + "\",\"channel\":\"" + general.id() + "\",\"text\":\"x\"}";
        assertThat(api.json("chat.postMessage", null, json).path("error").asText())
                .isEqualTo("not_authed");
        JsonNode viaForm = api.form(
                "chat.postMessage", null, args("token", slack.botToken(), "channel", general.id(), "text", "hi"));
        assertThat(viaForm.path("ok").asBoolean()).isTrue();
        assertThat(slack.botMessages(general)).extracting(SlackMessage::text).containsExactly("hi");
    }

    @Test
    void jsonWithoutACharsetIsServedWithTheMissingCharsetWarning() throws Exception {
        // SPEC CH-4: warnings come as "warning" and response_metadata.warnings
        HttpResponse<String> r = api.send(
                "chat.postMessage",
                slack.botToken(),
                "application/json",
                "{\"channel\":\"" + general.id() + "\",\"text\":\"x\"}");
        JsonNode body = SlackApi.JSON.readTree(r.body());
        assertThat(body.path("ok").asBoolean()).isTrue();
        assertThat(body.path("warning").asText()).isEqualTo("missing_charset");
        assertThat(body.path("response_metadata").path("warnings").get(0).asText())
                .isEqualTo("missing_charset");
        assertThat(post(general, "y").has("warning")).isFalse();
    }

    @Test
    void postsGetIncreasingTimestampsAndARepliesThreadStartsAtItsRoot() throws Exception {
        // SPEC CH-4: a message is channel + ts; thread_ts attaches a reply to its root
        JsonNode first = post(general, "root");
        String root = first.path("ts").asText();
        assertThat(root).matches("\\d{10}\\.\\d{6}");
        assertThat(first.path("message").path("bot_id").asText())
                .isEqualTo(slack.bot().botId());
        String reply = api.bot(
                        "chat.postMessage",
                        "{\"channel\":\"" + general.id() + "\",\"text\":\"r1\",\"thread_ts\":\"" + root + "\"}")
                .path("ts")
                .asText();
        assertThat(reply).isGreaterThan(root);
        // a reply's own ts names its root's thread
        JsonNode second = api.bot(
                "chat.postMessage",
                "{\"channel\":\"" + general.id() + "\",\"text\":\"r2\",\"thread_ts\":\"" + reply + "\"}");
        assertThat(second.path("message").path("thread_ts").asText()).isEqualTo(root);
        JsonNode thread =
                api.form("conversations.replies", slack.botToken(), args("channel", general.id(), "ts", root));
        assertThat(thread.path("messages"))
                .extracting(m -> m.path("text").asText())
                .containsExactly("root", "r1", "r2");
        assertThat(thread.path("messages").get(0).path("reply_count").asInt()).isEqualTo(2);
        JsonNode badThread = api.bot(
                "chat.postMessage", "{\"channel\":\"" + general.id() + "\",\"text\":\"x\",\"thread_ts\":\"1.000001\"}");
        assertThat(badThread.path("error").asText()).isEqualTo("invalid_thread_ts");
    }

    @Test
    void postsAreRefusedWhereSlackRefusesThem() throws Exception {
        // SPEC CH-4, OUT-7: channel_not_found, not_in_channel, is_archived are permanent; no_text is a bad request
        assertThat(api.bot("chat.postMessage", "{\"channel\":\"C0NOPE\",\"text\":\"x\"}")
                        .path("error")
                        .asText())
                .isEqualTo("channel_not_found");
        assertThat(post(slack.channelWithoutBot("random"), "x").path("error").asText())
                .isEqualTo("not_in_channel");
        SlackChannel old = slack.channel("old");
        slack.archive(old);
        assertThat(post(old, "x").path("error").asText()).isEqualTo("is_archived");
        assertThat(api.bot("chat.postMessage", "{\"channel\":\"" + general.id() + "\"}")
                        .path("error")
                        .asText())
                .isEqualTo("no_text");
        assertThat(slack.botMessages(general)).isEmpty();
    }

    @Test
    void textBeyondFortyThousandCharactersIsTruncatedWithAWarning() throws Exception {
        // SPEC CH-4: Slack truncates at 40,000 and says so (changelog 2018-04-truncating-really-long-messages)
        JsonNode r = post(general, "a".repeat(40_001));
        assertThat(r.path("ok").asBoolean()).isTrue();
        assertThat(r.path("response_metadata").path("warnings").get(0).asText()).isEqualTo("message_truncated");
        assertThat(slack.botMessages(general).getFirst().text()).hasSize(40_000);
    }

    @Test
    void onlyTheBotsOwnMessagesCanBeUpdatedOrDeleted() throws Exception {
        // SPEC CH-4, OUT-9: chat.update edits a live preview in place
        String ts = post(general, "draft").path("ts").asText();
        JsonNode updated = api.bot(
                "chat.update", "{\"channel\":\"" + general.id() + "\",\"ts\":\"" + ts + "\",\"text\":\"final\"}");
        assertThat(updated.path("text").asText()).isEqualTo("final");
        assertThat(slack.message(general, ts).edits()).isEqualTo(1);
        String theirs = slack.post(general, alice, "mine");
        assertThat(api.bot(
                                "chat.update",
                                "{\"channel\":\"" + general.id() + "\",\"ts\":\"" + theirs + "\",\"text\":\"x\"}")
                        .path("error")
                        .asText())
                .isEqualTo("cant_update_message");
        assertThat(api.bot("chat.delete", "{\"channel\":\"" + general.id() + "\",\"ts\":\"" + theirs + "\"}")
                        .path("error")
                        .asText())
                .isEqualTo("cant_delete_message");
        assertThat(api.bot("chat.delete", "{\"channel\":\"" + general.id() + "\",\"ts\":\"" + ts + "\"}")
                        .path("ok")
                        .asBoolean())
                .isTrue();
        assertThat(api.bot("chat.delete", "{\"channel\":\"" + general.id() + "\",\"ts\":\"" + ts + "\"}")
                        .path("error")
                        .asText())
                .isEqualTo("message_not_found");
        assertThat(slack.botMessages(general)).isEmpty();
    }

    @Test
    void aReactionIsAddedOnceRemovedOnceAndNamedWithoutColons() throws Exception {
        // SPEC CH-4, RP-5: ack reactions with reactions.add / reactions.remove
        String ts = slack.post(general, alice, "hello");
        String add = "{\"channel\":\"" + general.id() + "\",\"timestamp\":\"" + ts + "\",\"name\":\"eyes\"}";
        assertThat(api.bot("reactions.add", add).path("ok").asBoolean()).isTrue();
        assertThat(api.bot("reactions.add", add).path("error").asText()).isEqualTo("already_reacted");
        assertThat(slack.message(general, ts).reactions())
                .containsExactly("eyes:" + slack.bot().id());
        assertThat(api.bot("reactions.add", add.replace("\"eyes\"", "\":eyes:\""))
                        .path("error")
                        .asText())
                .isEqualTo("invalid_name");
        assertThat(api.bot("reactions.remove", add).path("ok").asBoolean()).isTrue();
        assertThat(api.bot("reactions.remove", add).path("error").asText()).isEqualTo("no_reaction");
        assertThat(slack.message(general, ts).reactions()).isEmpty();
    }

    @Test
    void historyIsNewestFirstLeavesOutRepliesAndPagesWithACursor() throws Exception {
        // SPEC CH-4: reconciling a send reads conversations.history, metadata included on request
        String one = slack.post(general, alice, "one");
        slack.reply(general, one, alice, "in thread");
        slack.post(general, alice, "two");
        api.bot(
                "chat.postMessage",
                "{\"channel\":\"" + general.id() + "\",\"text\":\"three\",\"metadata\":"
                        + "{\"event_type\":\"clawgate_send\",\"event_payload\":{\"key\":\"k-1\"}}}");
        JsonNode page1 = api.form(
                "conversations.history",
                slack.botToken(),
                args("channel", general.id(), "limit", "2", "include_all_metadata", "true"));
        assertThat(page1.path("messages"))
                .extracting(m -> m.path("text").asText())
                .containsExactly("three", "two");
        assertThat(page1.path("messages")
                        .get(0)
                        .path("metadata")
                        .path("event_payload")
                        .path("key")
                        .asText())
                .isEqualTo("k-1");
        assertThat(page1.path("has_more").asBoolean()).isTrue();
        String cursor = page1.path("response_metadata").path("next_cursor").asText();
        JsonNode page2 =
                api.form("conversations.history", slack.botToken(), args("channel", general.id(), "cursor", cursor));
        assertThat(page2.path("messages"))
                .extracting(m -> m.path("text").asText())
                .containsExactly("one");
        assertThat(page2.path("has_more").asBoolean()).isFalse();
        JsonNode plain = api.form("conversations.history", slack.botToken(), args("channel", general.id()));
        assertThat(plain.path("messages").get(0).has("metadata")).isFalse();
    }

    @Test
    void an429CarriesRetryAfterAndPostsNothing() throws Exception {
        // SPEC CH-4, OUT-7: 429 with Retry-After, per method (rate-limits, "Responding to rate limiting conditions")
        slack.rateLimitNext("chat.postMessage", 7);
        HttpResponse<String> r = api.send(
                "chat.postMessage",
                slack.botToken(),
                "application/json; charset=utf-8",
                "{\"channel\":\"" + general.id() + "\",\"text\":\"x\"}");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(SlackApi.JSON.readTree(r.body()).path("error").asText()).isEqualTo("ratelimited");
        assertThat(slack.botMessages(general)).isEmpty();
        assertThat(post(general, "x").path("ok").asBoolean()).isTrue();
    }

    @Test
    void aPostingLimitAppliesPerChannel() throws Exception {
        // SPEC CH-4: chat.postMessage allows about one message per second per channel
        slack.rateLimit("chat.postMessage", 1, Duration.ofMinutes(1));
        assertThat(post(general, "a").path("ok").asBoolean()).isTrue();
        HttpResponse<String> second = api.send(
                "chat.postMessage",
                slack.botToken(),
                "application/json; charset=utf-8",
                "{\"channel\":\"" + general.id() + "\",\"text\":\"b\"}");
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(Integer.parseInt(second.headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(1, 60);
        assertThat(post(slack.channel("other"), "c").path("ok").asBoolean()).isTrue();
    }

    @Test
    void aLateAnswerStillPostsTheMessageOnce() throws Exception {
        // SPEC CH-4, OUT-5: a chat.postMessage whose answer is late took effect; a blind retry would post it twice
        slack.delayNext("chat.postMessage", Duration.ofSeconds(2));
        HttpRequest r = HttpRequest.newBuilder(URI.create(slack.apiBase() + "/chat.postMessage"))
                .timeout(Duration.ofMillis(300))
                .header("Authorization", "Bearer " + slack.botToken())
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString("{\"channel\":\"" + general.id() + "\",\"text\":\"late\"}"))
                .build();
        assertThatThrownBy(() -> api.http.send(r, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> slack.botMessages(general).size() == 1);
        assertThat(slack.calls("chat.postMessage")).hasSize(1);
    }

    @Test
    void anInjectedErrorIsAnsweredAndNothingHappens() throws Exception {
        // SPEC CH-4, OUT-7: account_inactive and friends are answered in Slack's envelope
        slack.failNext("chat.postMessage", "account_inactive");
        assertThat(post(general, "x").path("error").asText()).isEqualTo("account_inactive");
        assertThat(slack.botMessages(general)).isEmpty();
        assertThat(api.bot("no.such.method", "{}").path("error").asText()).isEqualTo("unknown_method");
    }

    @Test
    void appsConnectionsOpenTakesTheAppTokenInTheHeaderOnly() throws Exception {
        // SPEC CH-4: Socket Mode URLs need the xapp token as a bearer token (apps.connections.open, "Usage info")
        JsonNode ok = api.json("apps.connections.open", slack.appToken(), "{}");
        assertThat(ok.path("url").asText()).startsWith("ws://127.0.0.1:").contains("/link/?ticket=");
        assertThat(api.json("apps.connections.open", slack.botToken(), "{}")
                        .path("error")
                        .asText())
                .isEqualTo("not_allowed_token_type");
        assertThat(api.form("apps.connections.open", null, args("token", slack.appToken()))
                        .path("error")
                        .asText())
                .isEqualTo("not_authed");
    }
}
