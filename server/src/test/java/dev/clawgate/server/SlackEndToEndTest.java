package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackMessage;
import dev.clawgate.testkit.slack.SlackSignature;
import dev.clawgate.testkit.slack.SlackUser;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the Slack channel (found by ServiceLoader from channels/slack) on a {@link FakeSlack} that
 * speaks the Web API, the Events API and Socket Mode on loopback, and a fake model behind it (SPEC CH-4).
 */
class SlackEndToEndTest extends GatewayFixture {
    /** Any DM and any channel may talk to the bot; in a channel it must be mentioned. */
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);

    private FakeSlack slack;
    private SlackUser alice;
    private SlackChannel dm;
    private int port;

    @BeforeEach
    void startSlack() {
        slack = FakeSlack.start("clawbot");
        alice = slack.user("alice");
        dm = slack.dm(alice);
        slack.eventRetryDelays(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(100));
    }

    @AfterEach
    void stopSlack() {
        closeGateway();
        slack.close();
    }

    private ClawgateConfig slackConfig(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of(
                "bot_token",
                slack.botToken(),
                "signing_secret",
                slack.signingSecret(),
                "app_token",
                slack.appToken(),
                "api_base",
                slack.apiBase()));
        options.putAll(extra);
        return config().withChannel(new ChannelSettings("slack", OPEN, Map.of(), options));
    }

    /** The gateway with its HTTP server, Slack's Request URL pointed at its webhook path. */
    private void startEvents(Map<String, String> extra) throws Exception {
        port = serve(slackConfig(extra));
        slack.deliverEventsTo(URI.create("http://127.0.0.1:" + port + "/webhooks/slack"));
    }

    private List<SlackMessage> awaitBotMessages(SlackChannel c, int n) {
        await().atMost(Duration.ofSeconds(20)).until(() -> slack.botMessages(c).size() >= n);
        return slack.botMessages(c);
    }

    @Test
    void aDirectMessageWithAToolCallWritesTheFileAndRepliesInMrkdwnWithReactions() throws Exception {
        // SPEC CH-4, AG-1, RP-5 (ack reactions), RP-3 (no tool prefix in what Slack shows)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."));
        startEvents(Map.of("ack_reactions", "true"));
        assertThat(slack.verifyRequestUrl()).isTrue();
        String asked = slack.post(dm, alice, "please note: buy milk");
        SlackMessage reply = awaitBotMessages(dm, 1).getFirst();
        assertThat(reply.text()).isEqualTo("I wrote *notes/todo.txt*.");
        assertThat(reply.threadTs()).isNull();
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        await().until(() ->
                slack.message(dm, asked).reactions().stream().anyMatch(r -> r.startsWith("white_check_mark")));
        assertThat(slack.message(dm, asked).reactions()).noneMatch(r -> r.startsWith("eyes"));
        assertThat(slack.calls("reactions.add"))
                .extracting(b -> b.path("name").asText())
                .containsExactly("eyes", "white_check_mark");
        assertThat(model.chatRequests()).hasSize(2);
        // SPEC SP-1: the turn's system prompt carries Slack's own formatting guidance
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("mrkdwn");
    }

    @Test
    void aChannelMessageWithoutAMentionIsContextAndTheMentionIsAnsweredInItsThreadOnce() throws Exception {
        // SPEC IN-5 (require_mention), IN-6 (group history), IN-1 (message + app_mention pair is one turn), CH-4
        // (threads)
        SlackChannel general = slack.channel("general");
        SlackUser bob = slack.user("bob");
        model.enqueue(Reply.text("It is swordfish."), Reply.text("Still swordfish."));
        startEvents(Map.of());
        slack.post(general, bob, "the password is swordfish");
        await().until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.BUFFERED, 0L) == 1L);
        assertThat(model.chatRequests()).isEmpty();
        String asked = slack.post(general, alice, slack.bot().mention() + " what is the password?");
        SlackMessage reply = awaitBotMessages(general, 1).getFirst();
        assertThat(reply.text()).isEqualTo("It is swordfish.");
        assertThat(reply.threadTs())
                .as("a reply to a channel message opens a thread under it")
                .isEqualTo(asked);
        RecordedRequest req = model.chatRequests().getFirst();
        String lastUser =
                req.messages().get(req.messages().size() - 1).path("content").asText();
        assertThat(lastUser).contains("the password is swordfish", "@clawbot what is the password?");
        // a reply in that thread is answered in the thread
        slack.reply(general, asked, alice, slack.bot().mention() + " and now?");
        List<SlackMessage> replies = awaitBotMessages(general, 2);
        assertThat(replies.get(1).threadTs()).isEqualTo(asked);
        // both events of each mention were delivered, and each mention got one reply
        await().until(() -> slack.deliveries().stream()
                        .filter(d -> d.eventType().equals("app_mention") && d.accepted())
                        .count()
                == 2);
        Thread.sleep(300);
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(slack.botMessages(general)).hasSize(2);
    }

    @Test
    void aPhotoSharedInADirectMessageReachesAVisionModelAndAnImageInTheReplyIsUploaded() throws Exception {
        // SPEC OUT-13 (files downloaded with the bot token; [IMAGE:p] uploaded with the external upload flow), AG-4,
        // CH-4
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 7, 7, 7};
        java.nio.file.Path chart = dir.resolve("workspace/chart.png");
        java.nio.file.Files.createDirectories(chart.getParent());
        java.nio.file.Files.write(chart, new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 42});
        model.enqueue(Reply.text("Here is a chart.\n[IMAGE:chart.png]"));
        ClawgateConfig c = slackConfig(Map.of());
        ProviderSettings vision = new ProviderSettings(
                "fake", "openai", model.baseUrl(), "sk-test-key-0000", true, "gpt-test", 30, null, true);
        port = serve(new ClawgateConfig(
                c.gateway(),
                c.agent(),
                Map.of("fake", vision),
                c.routes(),
                c.history(),
                c.tools(),
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels()));
        slack.deliverEventsTo(URI.create("http://127.0.0.1:" + port + "/webhooks/slack"));
        slack.postFile(dm, alice, "photo.png", "image/png", png, "what is this?");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> slack.botMessages(dm).stream()
                        .anyMatch(m -> !m.fileIds().isEmpty()));
        RecordedRequest asked = model.chatRequests().getFirst();
        assertThat(asked.messages()
                        .get(asked.messages().size() - 1)
                        .path("content")
                        .toString())
                .contains("what is this?", "image_url", "data:image/png;base64,");
        assertThat(slack.calls())
                .filteredOn(call -> call.method().equals("GET url_private"))
                .singleElement()
                .satisfies(call -> assertThat(call.headers().get(":token")).isEqualTo("bot"));
        SlackMessage shared = slack.botMessages(dm).stream()
                .filter(m -> !m.fileIds().isEmpty())
                .findFirst()
                .orElseThrow();
        assertThat(slack.fileBytes(shared.fileIds().getFirst())).isEqualTo(java.nio.file.Files.readAllBytes(chart));
        assertThat(slack.calls("files.completeUploadExternal"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("channel_id").asText()).isEqualTo(dm.id()));
        assertThat(slack.botMessages(dm))
                .extracting(SlackMessage::text)
                .anyMatch(t -> t.contains("Here is a chart."))
                .noneMatch(t -> t.contains("[IMAGE:"));
    }

    @Test
    void aPostWhoseAnswerIsDelayedPastTheClientTimeoutIsListedAndNeverSentTwice() throws Exception {
        // SPEC OUT-7, OUT-12, CH-4: the post took effect, its answer came after api_timeout_secs: unknown_after_send,
        // one message
        model.enqueue(Reply.text("only once"), Reply.text("a second answer must not happen"));
        slack.delayNext("chat.postMessage", Duration.ofSeconds(3));
        startEvents(Map.of("api_timeout_secs", "1"));
        slack.post(dm, alice, "answer me once");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !gateway.store()
                        .outbox()
                        .byState(OutboxState.UNKNOWN_AFTER_SEND)
                        .isEmpty());
        // past the late answer, and past the first retry an outbox could have scheduled (5 s)
        Thread.sleep(6000);
        assertThat(slack.calls("chat.postMessage")).hasSize(1);
        assertThat(slack.botMessages(dm)).extracting(SlackMessage::text).containsExactly("only once");
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void theSameEventRetriedBySlackGetsOneReply() throws Exception {
        // SPEC IN-1: Slack's retry (X-Slack-Retry-Num, same event_id) is deduped by the message's identity
        model.enqueue(Reply.text("answered once"), Reply.text("a second answer must not happen"));
        startEvents(Map.of());
        slack.post(dm, alice, "hello once");
        awaitBotMessages(dm, 1);
        String eventId = slack.events().getLast().path("event_id").asText();
        slack.redeliver(eventId);
        // the retry was answered 200 (a duplicate is taken, so Slack stops retrying) and started no second turn
        assertThat(slack.calls())
                .filteredOn(c -> c.method().equals("answer to event push")
                        && eventId.equals(c.headers().get("event-id"))
                        && "1".equals(c.headers().get("x-slack-retry-num")))
                .singleElement()
                .satisfies(c -> assertThat(c.headers().get(":status")).isEqualTo("200"));
        Thread.sleep(300);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(slack.botMessages(dm)).hasSize(1);
    }

    @Test
    void aBadSignatureAndAStaleTimestampAreRefusedCountedAndNeverStored() throws Exception {
        // SPEC IN-5, CH-4, OP-3 (/metrics)
        startEvents(Map.of());
        byte[] body =
                ("{\"type\":\"event_callback\",\"event_id\":\"Ev1\",\"event\":{\"type\":\"message\",\"channel\":\""
                                + dm.id() + "\",\"channel_type\":\"im\",\"user\":\"" + alice.id()
                                + "\",\"text\":\"forged\",\"ts\":\"1700000000.000100\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        long now = System.currentTimeMillis() / 1000;
        assertThat(slack.pushOnce(body, now, new SlackSignature("not-the-secret").sign(now, body))
                        .status())
                .isEqualTo(401);
        long stale = now - 10 * 60;
        assertThat(slack.pushOnce(body, stale, new SlackSignature(slack.signingSecret()).sign(stale, body))
                        .status())
                .isEqualTo(401);
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isZero();
        assertThat(model.chatRequests()).isEmpty();
        HttpResponse<String> scrape = GatewayHarness.get(port, "/metrics", null);
        assertThat(scrape.body().lines()).contains("clawgate_webhook_rejected_total{channel=\"slack\"} 2.0");
    }

    @Test
    void aLongReplyArrivesAsSeveralMessagesWithinTheLimitWithFencesBalanced() throws Exception {
        // SPEC OUT-1, CH-4: 9,000 characters cut to 4000 per message; a code fence cut across messages is closed and
        // reopened
        StringBuilder text = new StringBuilder();
        while (text.length() < 4500)
            text.append("Some prose about the plan, sentence ")
                    .append(text.length())
                    .append(". ");
        text.append("\n\n```\n");
        while (text.length() < 9000)
            text.append("code line ").append(text.length()).append('\n');
        text.append("```\nThe end.");
        model.enqueue(Reply.text(text.toString()));
        startEvents(Map.of());
        slack.post(dm, alice, "write a lot");
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        slack.botMessages(dm).stream().anyMatch(m -> m.text().contains("The end.")));
        List<SlackMessage> parts = slack.botMessages(dm);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(parts).allSatisfy(m -> {
            assertThat(m.text().length()).isLessThanOrEqualTo(4000 + 8);
            assertThat(m.text().split("```", -1).length % 2)
                    .as("fences balanced in %s", m.ts())
                    .isEqualTo(1);
        });
    }

    @Test
    void socketModeSurvivesADroppedSocketWithoutLosingOrDoublingAMessage() throws Exception {
        // SPEC CH-0, CH-4, IN-1, IN-3: envelopes acked after the commit; a drop reconnects; redelivery deduped
        model.enqueue(Reply.text("first answer"), Reply.text("second answer"));
        slack.useSocketMode();
        slack.eventAckTimeout(Duration.ofMillis(500));
        start(slackConfig(Map.of("mode", "socket")));
        await().until(() -> slack.openSockets() == 1);
        slack.post(dm, alice, "first");
        awaitBotMessages(dm, 1);
        slack.dropSockets();
        slack.post(dm, alice, "second");
        awaitBotMessages(dm, 2);
        await().until(() -> slack.unacknowledgedEnvelopes() == 0);
        assertThat(slack.calls("apps.connections.open")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(slack.botMessages(dm))
                .extracting(SlackMessage::text)
                .containsExactly("first answer", "second answer");
        assertThat(model.chatRequests()).hasSize(2);
    }

    @Test
    void aLivePreviewIsEditedIntoTheFinalReply() throws Exception {
        // SPEC OUT-9 (a ... draft at once, chat.update edits, finalEdit), CH-4
        model.enqueue(Reply.text("The quick brown fox jumps over the **lazy** dog again and again.")
                .streamedInChunks(12)
                .delayPerChunk(Duration.ofMillis(150)));
        startEvents(Map.of("stream_mode", "preview"));
        slack.post(dm, alice, "tell me about the fox");
        String rendered = "The quick brown fox jumps over the *lazy* dog again and again.";
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !slack.botMessages(dm).isEmpty()
                        && slack.botMessages(dm).getFirst().text().equals(rendered));
        SlackMessage only = slack.botMessages(dm).getFirst();
        assertThat(slack.botMessages(dm)).hasSize(1);
        assertThat(only.text()).isEqualTo(rendered);
        assertThat(only.edits()).isGreaterThanOrEqualTo(2);
        assertThat(slack.calls("chat.postMessage"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("text").asText()).isEqualTo("..."));
    }

    @Test
    void stopDuringASlowModelStreamStopsItAndSaysSo() throws Exception {
        // SPEC DI-5, AG-2, OUT-9, CH-4: /stop cancels the run, its draft goes, and the stop is said
        model.enqueue(Reply.text("word ".repeat(300)).streamedInChunks(300).delayPerChunk(Duration.ofMillis(50)));
        startEvents(Map.of("stream_mode", "preview"));
        slack.post(dm, alice, "tell me a very long story");
        await().atMost(Duration.ofSeconds(10)).until(() -> model.chatRequests().size() == 1);
        slack.post(dm, alice, "/stop");
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        slack.botMessages(dm).stream().anyMatch(m -> m.text().contains("Stopped")));
        assertThat(model.awaitClientDisconnect(Duration.ofSeconds(10))).isTrue();
        await().until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.CANCELLED, 0L) == 1L);
        assertThat(slack.botMessages(dm))
                .noneMatch(m -> m.text().contains("word ".repeat(300).strip()));
    }
}
