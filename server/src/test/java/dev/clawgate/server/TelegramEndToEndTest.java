package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real gateway with the Telegram channel pointed at a fake Bot API, and a fake model behind it. */
class TelegramEndToEndTest extends TelegramGatewayFixture {
    private static final String SECRET = "hook-secret_123";

    private void start(Map<String, String> extra) throws Exception {
        start(extra, false);
    }

    private void start(Map<String, String> extra, boolean http) throws Exception {
        start(extra, http, ChannelOutput.defaults());
    }

    private void start(Map<String, String> extra, boolean http, ChannelOutput output) throws Exception {
        ClawgateConfig c = config();
        GatewaySettings g = new GatewaySettings(dir.resolve("data"), http ? "127.0.0.1:" + port : "127.0.0.1:0", null);
        start(
                new ClawgateConfig(
                        g,
                        c.agent(),
                        c.providers(),
                        c.routes(),
                        c.history(),
                        c.tools(),
                        c.dispatch(),
                        c.session(),
                        c.inbound(),
                        c.queue(),
                        Map.of("telegram", telegram(extra, output))),
                http ? GatewayOptions.server() : GatewayOptions.with());
    }

    private int port;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aDirectConversationWithAToolCallWritesTheFileAndRepliesWithTypingAndReactions() throws Exception {
        // SPEC CH-3, AG-1, RP-5 (typing, ack reactions), RP-3 (no tool prefix on Telegram)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."));
        start(Map.of("ack_reactions", "true"));
        long asked = tg.sendText(dm, alice, "please note: buy milk");
        SentMessage reply = awaitSent(dm, 1).getFirst();
        assertThat(reply.text()).isEqualTo("I wrote notes/todo.txt.");
        assertThat(reply.rawText()).isEqualTo("I wrote <b>notes/todo.txt</b>.");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(tg.chatActions()).contains(dm.id() + ":typing");
        await().until(() -> tg.reactions(dm, asked).size() == 2);
        assertThat(tg.reactions(dm, asked)).containsExactly("👀", "👍");
        assertThat(model.chatRequests()).hasSize(2);
    }

    @Test
    void aGroupMessageWithoutAMentionIsNotAnsweredButIsContextForTheNextMention() throws Exception {
        // SPEC IN-5 (require_mention), IN-6 (group history), CH-3 (mention by @username)
        TelegramChat group = tg.group(-100500, "Friends");
        TelegramUser bob = tg.user(222, "bob");
        model.enqueue(Reply.text("It is swordfish."));
        start(Map.of());
        tg.sendText(group, bob, "the password is swordfish");
        await().until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.BUFFERED, 0L) == 1L);
        assertThat(model.chatRequests()).isEmpty();
        tg.sendText(group, alice, "@clawbot what is the password?");
        assertThat(awaitSent(group, 1).getFirst().text()).isEqualTo("It is swordfish.");
        RecordedRequest req = model.chatRequests().getFirst();
        String lastUser =
                req.messages().get(req.messages().size() - 1).path("content").asText();
        assertThat(lastUser)
                .contains(
                        "[Chat messages since your last reply - for context]",
                        "the password is swordfish",
                        "[Current message - respond to this]",
                        "@clawbot what is the password?");
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void theSameUpdateDeliveredTwiceGetsOneReply() throws Exception {
        // SPEC IN-1 (webhook retry of one update), CH-3 webhook mode
        port = freePort();
        start(
                Map.of(
                        "mode",
                        "webhook",
                        "webhook_url",
                        "http://127.0.0.1:" + port + "/webhooks/telegram",
                        "webhook_secret",
                        SECRET),
                true);
        await().until(() -> !tg.webhookUrl().isEmpty());
        tg.sendText(dm, alice, "hello once");
        awaitSent(dm, 1);
        long update = tg.lastUpdateId();
        tg.redeliver(update);
        await().until(() -> tg.webhookPushes().stream()
                        .filter(p -> p.updateId() == update && p.status() == 200)
                        .count()
                == 2);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(tg.sentTo(dm)).hasSize(1);
    }

    @Test
    void aPolledUpdateServedAgainAfterARestartGetsOneReply() throws Exception {
        // SPEC IN-1 (dedupe persisted in the store: a redelivery after a restart is still caught), CH-3 (long polling,
        // offset acks)
        model.enqueue(Reply.text("answered once"));
        start(Map.of());
        tg.sendText(dm, alice, "hello once");
        long update = tg.lastUpdateId();
        awaitSent(dm, 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.confirmedOffset() > update);
        closeGateway();

        // Telegram serves the update again to a poller starting over (offset 0), as after a lost confirmation
        tg.redeliver(update);
        int pollsBefore = tg.calls("getUpdates").size();
        start(Map.of());
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.calls("getUpdates").size() >= pollsBefore + 2);
        assertThat(tg.calls("getUpdates").get(pollsBefore).path("offset").asLong())
                .isZero();
        assertThat(tg.calls("getUpdates").get(pollsBefore + 1).path("offset").asLong())
                .isEqualTo(update + 1);
        assertThat(tg.pendingUpdates()).isZero();

        assertThat(model.chatRequests()).hasSize(1);
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("answered once");
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .as("one inbox row")
                .isEqualTo(1);
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DONE, 1L);
    }

    @Test
    void aWebhookRequestWithTheWrongSecretIsRefusedAndNothingIsStored() throws Exception {
        // SPEC CH-3 (webhook_secret), IN-5 (rejected webhook requests are counted, not stored)
        port = freePort();
        start(
                Map.of(
                        "mode",
                        "webhook",
                        "webhook_url",
                        "https://bot.example/webhooks/telegram",
                        "webhook_secret",
                        SECRET),
                true);
        await().until(() -> !tg.webhookUrl().isEmpty());
        assertThat(tg.calls("setWebhook").getFirst().path("secret_token").asText())
                .isEqualTo(SECRET);
        String update =
                "{\"update_id\":1,\"message\":{\"message_id\":1,\"from\":{\"id\":111,\"is_bot\":false,\"first_name\":"
                        + "\"A\"},"
                        + "\"chat\":{\"id\":111,\"type\":\"private\"},\"date\":1,\"text\":\"forged\"}}";
        for (String secret : new String[] {"wrong", null}) {
            HttpRequest.Builder b = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/webhooks/telegram"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(update));
            if (secret != null) b.header("X-Telegram-Bot-Api-Secret-Token", secret);
            assertThat(GatewayHarness.HTTP
                            .send(b.build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(401);
        }
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isZero();
        assertThat(model.chatRequests()).isEmpty();
        // SPEC IN-5 (counted), OP-3 (/metrics): the refusals show on the scrape, per channel
        HttpResponse<String> scrape = GatewayHarness.get(port, "/metrics", null);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body().lines()).contains("clawgate_webhook_rejected_total{channel=\"telegram\"} 2.0");
    }

    @Test
    void aDeliveryWithTheRightSecretIsNotCountedAsRefused() throws Exception {
        // SPEC IN-5: only requests without the right secret are counted as rejected; CH-3 webhook mode
        model.enqueue(Reply.text("hi back"));
        port = freePort();
        start(
                Map.of(
                        "mode",
                        "webhook",
                        "webhook_url",
                        "http://127.0.0.1:" + port + "/webhooks/telegram",
                        "webhook_secret",
                        SECRET),
                true);
        await().until(() -> !tg.webhookUrl().isEmpty());
        tg.sendText(dm, alice, "hi");
        awaitSent(dm, 1);
        assertThat(GatewayHarness.get(port, "/metrics", null).body().lines())
                .contains("clawgate_webhook_rejected_total{channel=\"telegram\"} 0.0");
    }

    @Test
    void aTenThousandCharacterReplyArrivesAsSeveralMessagesWithinTheLimit() throws Exception {
        // SPEC OUT-1 (Telegram: 4096 UTF-16 units, fences closed and reopened), CH-3
        StringBuilder reply = new StringBuilder();
        for (int i = 0; reply.length() < 3000; i++)
            reply.append("Paragraph ").append(i).append(" says something 😀 useful here.\n\n");
        reply.append("```java\n");
        for (int i = 0; reply.length() < 10_000; i++)
            reply.append("int x").append(i).append(" = ").append(i).append(";\n");
        reply.append("```\n");
        String text = reply.toString();
        model.enqueue(Reply.text(text));
        start(Map.of());
        tg.sendText(dm, alice, "write a lot");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).size() >= 3
                        && squash(tg.sentTo(dm).stream().map(SentMessage::text).reduce("", String::concat))
                                        .length()
                                >= squash(visible(text)).length());
        List<SentMessage> parts = tg.sentTo(dm);
        assertThat(parts).allSatisfy(m -> {
            assertThat(m.text().length()).isLessThanOrEqualTo(4096);
            assertThat(count(m.rawText(), "<pre>")).isEqualTo(count(m.rawText(), "</pre>"));
        });
        assertThat(parts.stream().filter(m -> m.rawText().contains("<pre>"))).hasSizeGreaterThanOrEqualTo(2);
        assertThat(squash(parts.stream().map(SentMessage::text).reduce("", String::concat)))
                .isEqualTo(squash(visible(text)));
    }

    @Test
    void replyParametersFollowTheReplyToModeAndTheFirstMessageCarriesThePrefix() throws Exception {
        // SPEC OUT-3 (reply_to_mode first: only the first message quotes the question; channels.<ch>.response_prefix)
        model.enqueue(Reply.text("a".repeat(3000) + "\n\n" + "b".repeat(3000)));
        start(Map.of(), false, new ChannelOutput(ReplyToMode.FIRST, "🦀", Map.of(), null));
        long asked = tg.sendText(dm, alice, "write two messages");
        List<SentMessage> parts = awaitSent(dm, 2);
        assertThat(parts).extracting(SentMessage::replyTo).containsExactly(asked, null);
        assertThat(parts.get(0).text()).startsWith("🦀 aaa");
        assertThat(parts.get(1).text()).startsWith("bbb");
        assertThat(tg.calls("sendMessage"))
                .extracting(call -> call.has("reply_parameters"))
                .containsExactly(true, false);
    }

    @Test
    void offSendsNoReplyParametersAtAll() throws Exception {
        // SPEC OUT-3 (reply_to_mode off)
        model.enqueue(Reply.text("a".repeat(3000) + "\n\n" + "b".repeat(3000)));
        start(Map.of(), false, new ChannelOutput(ReplyToMode.OFF, null, Map.of(), null));
        tg.sendText(dm, alice, "write two messages");
        assertThat(awaitSent(dm, 2)).extracting(SentMessage::replyTo).containsExactly(null, null);
        assertThat(tg.calls("sendMessage")).noneMatch(call -> call.has("reply_parameters"));
    }

    @Test
    void anImageMarkerIsSentAsAPhotoAndAPathOutsideTheWorkspaceIsNot() throws Exception {
        // SPEC OUT-13 (markers become media payloads and leave the text; paths confined to the workspace), CH-3
        // (sendPhoto)
        java.nio.file.Files.createDirectories(dir.resolve("workspace"));
        java.nio.file.Files.write(dir.resolve("workspace/chart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        java.nio.file.Files.writeString(dir.resolve("secret.txt"), "top secret");
        model.enqueue(Reply.text("Here is the chart.\n[IMAGE:chart.png]\n[DOCUMENT:../secret.txt]"));
        start(Map.of());
        tg.sendText(dm, alice, "draw a chart");
        List<SentMessage> sent = awaitSent(dm, 2);
        assertThat(sent).extracting(SentMessage::kind).containsExactly("text", "photo");
        assertThat(sent.get(0).text()).isEqualTo("Here is the chart.");
        assertThat(sent.get(1).fileName()).isEqualTo("chart.png");
        assertThat(sent.get(1).bytes()).containsExactly((byte) 0x89, 'P', 'N', 'G');
        assertThat(tg.calls("sendDocument")).isEmpty();
        await().until(() -> gateway.store().outbox().byState(OutboxState.SENT).size() == 1);
        assertThat(gateway.store().outbox().byState(OutboxState.SENT).getFirst().receipts())
                .hasSize(2);
    }

    private static String visible(String markdown) {
        return markdown.replace("```java", "").replace("```", "");
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", "");
    }

    private static int count(String s, String needle) {
        return s.split(java.util.regex.Pattern.quote(needle), -1).length - 1;
    }

    @Test
    void aLivePreviewIsEditedIntoTheFinalReply() throws Exception {
        // SPEC OUT-9 (draft, rate-limited edits, finalEdit), CH-3 (editMessageText)
        model.enqueue(Reply.text("The quick brown fox jumps over the **lazy** dog again and again.")
                .streamedInChunks(12)
                .delayPerChunk(Duration.ofMillis(120)));
        start(Map.of("stream_mode", "preview", "preview_interval_ms", "250"));
        tg.sendText(dm, alice, "tell me about the fox");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !tg.sentTo(dm).isEmpty()
                        && tg.sentTo(dm).getFirst().rawText().contains("<b>"));
        SentMessage only = tg.sentTo(dm).getFirst();
        assertThat(tg.sentTo(dm)).hasSize(1);
        assertThat(only.text()).isEqualTo("The quick brown fox jumps over the lazy dog again and again.");
        assertThat(only.edits()).isGreaterThanOrEqualTo(2);
        List<JsonNode> sends = tg.calls("sendMessage");
        assertThat(sends).hasSize(1);
        assertThat(sends.getFirst().has("parse_mode")).isFalse();
        assertThat(sends.getFirst().path("text").asText()).isEqualTo("...");
        // rate-limited: 12 deltas over about 1.4 s at one edit per 250 ms is at most 6 preview edits (plus one for the
        // text
        // that came while the "..." draft was being sent) and the final one; the exact limit is proven on a manual
        // clock
        // (TelegramContractTest, LivePreviewTest)
        assertThat(tg.calls("editMessageText")).hasSizeBetween(2, 9);
    }

    @Test
    void stopDuringASlowModelStreamStopsItAndSaysSo() throws Exception {
        // SPEC DI-5, AG-2, CH-3
        model.enqueue(Reply.text("word ".repeat(300)).streamedInChunks(300).delayPerChunk(Duration.ofMillis(50)));
        start(Map.of("stream_mode", "preview"));
        tg.sendText(dm, alice, "tell me a very long story");
        await().atMost(Duration.ofSeconds(10)).until(() -> model.chatRequests().size() == 1);
        tg.sendText(dm, alice, "/stop");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().contains("Stopped")));
        assertThat(model.awaitClientDisconnect(Duration.ofSeconds(10))).isTrue();
        await().until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.CANCELLED, 0L) == 1L);
        assertThat(tg.sentTo(dm))
                .noneMatch(m -> m.text().contains("word ".repeat(300).strip()));
    }

    @Test
    void theDraftIsShownBeforeTheModelAnswersAndBecomesTheReply() throws Exception {
        // SPEC OUT-9: channels that can edit show a draft (...) at once, before the model's first token
        model.enqueue(Reply.text("Here it is.").delayBefore(Duration.ofSeconds(3)));
        start(Map.of("stream_mode", "preview"));
        tg.sendText(dm, alice, "slow one, please");
        await().atMost(Duration.ofSeconds(20)).until(() -> !tg.sentTo(dm).isEmpty());
        SentMessage draft = tg.sentTo(dm).getFirst();
        assertThat(draft.text()).isEqualTo("...");
        assertThat(draft.edits()).isZero();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).getFirst().text().equals("Here it is."));
        assertThat(tg.sentTo(dm))
                .singleElement()
                .extracting(SentMessage::messageId)
                .isEqualTo(draft.messageId());
    }

    @Test
    void reasoningStreamShowsInlineThinkReasoningInTheDraftAndTheFinalEditLeavesOnlyTheAnswer() throws Exception {
        // SPEC RP-4 stream (inline <think> reasoning into the draft), RP-2 (never in the reply), OUT-9 (final edit
        // replaces it)
        model.enqueue(Reply.text("<think>The user greets me; answer warmly.</think>Hello, Alice!")
                .streamedInChunks(10)
                .delayPerChunk(Duration.ofMillis(60)));
        start(Map.of("stream_mode", "preview", "preview_interval_ms", "0"));
        tg.sendText(dm, alice, "/reasoning stream");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(dm).size() == 1);
        tg.sendText(dm, alice, "hi there");
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        tg.sentTo(dm).size() == 2 && tg.sentTo(dm).get(1).text().equals("Hello, Alice!"));
        List<JsonNode> edits = tg.calls("editMessageText");
        assertThat(edits).anySatisfy(e -> {
            assertThat(e.path("parse_mode").asText()).isEqualTo("HTML");
            assertThat(e.path("text").asText())
                    .startsWith("<blockquote expandable><i>Reasoning:</i>\nThe user greets me; answer "
                            + "warmly.</blockquote>");
        });
        assertThat(tg.calls().stream().map(c -> c.body())).noneMatch(b -> b.contains("think>"));
        SentMessage reply = tg.sentTo(dm).get(1);
        assertThat(reply.rawText()).doesNotContain("Reasoning", "greets");
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.DONE, 2L);
    }

    @Test
    void reasoningOnSendsInlineThinkReasoningAsItsOwnMessageBeforeTheAnswer() throws Exception {
        // SPEC RP-4 on: inline reasoning sent as a separate message before the answer; RP-2: the answer has none
        model.enqueue(
                Reply.text("<think>Two and two make four.</think>It is 4.").streamedInChunks(7));
        start(Map.of());
        tg.sendText(dm, alice, "/reasoning on");
        awaitSent(dm, 1);
        tg.sendText(dm, alice, "what is 2+2?");
        List<SentMessage> sent = awaitSent(dm, 3);
        assertThat(sent.subList(1, 3))
                .extracting(SentMessage::text)
                .containsExactly("💭 Two and two make four.", "It is 4.");
    }

    @Test
    void withAPreviewReasoningOnStillReadsReasoningFirstThenTheAnswer() throws Exception {
        // SPEC RP-4 on (before the answer) with OUT-9 (the draft shown at once above would put the answer first: it is
        // deleted)
        model.enqueue(Reply.text("<think>Two and two make four.</think>It is 4.")
                .streamedInChunks(7)
                .delayPerChunk(Duration.ofMillis(40)));
        start(Map.of("stream_mode", "preview"));
        tg.sendText(dm, alice, "/reasoning on");
        awaitSent(dm, 1);
        tg.sendText(dm, alice, "what is 2+2?");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().equals("It is 4.")));
        assertThat(tg.sentTo(dm).subList(1, tg.sentTo(dm).size()))
                .extracting(SentMessage::text)
                .containsExactly("💭 Two and two make four.", "It is 4.");
        assertThat(tg.calls("deleteMessage")).hasSize(1);
    }

    @Test
    void aMessageWaitingBehindARunShowsItsReceiptAtOnceAndBothEndDone() throws Exception {
        // SPEC RP-5: 👀 on receipt (not when the turn starts), then done (👍 stands for ✅: Telegram bots cannot react
        // ✅)
        model.enqueue(Reply.text("first answer").delayBefore(Duration.ofSeconds(5)), Reply.text("second answer"));
        start(Map.of("ack_reactions", "true"));
        long first = tg.sendText(dm, alice, "first");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long second = tg.sendText(dm, alice, "second");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.reactions(dm, second).contains("👀"));
        assertThat(tg.sentTo(dm))
                .as("the first turn is still waiting for its model")
                .noneMatch(m -> m.text().endsWith("answer"));
        assertThat(model.chatRequests()).hasSize(1);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream()
                                .filter(m -> m.text().endsWith("answer"))
                                .count()
                        == 2);
        await().until(() ->
                tg.reactions(dm, first).size() == 2 && tg.reactions(dm, second).size() == 2);
        assertThat(tg.reactions(dm, first)).containsExactly("👀", "👍");
        assertThat(tg.reactions(dm, second)).containsExactly("👀", "👍");
    }

    @Test
    void aFailedTurnEndsWithTheFailedReaction() throws Exception {
        // SPEC RP-5: ⚠️ when the turn failed (😢 stands for it: Telegram bots cannot react ⚠️)
        model.enqueue(Reply.apiError(400, "Invalid request", "invalid_request_error", null));
        start(Map.of("ack_reactions", "true"));
        long asked = tg.sendText(dm, alice, "break please");
        awaitSent(dm, 1);
        await().until(() -> tg.reactions(dm, asked).size() == 2);
        assertThat(tg.reactions(dm, asked)).containsExactly("👀", "😢");
        assertThat(gateway.store().inbox().counts()).containsEntry(InboxState.FAILED, 1L);
    }

    @Test
    void aCancelledRunLosesItsReceiptAndItsDraftAndTheStopGetsNoReaction() throws Exception {
        // SPEC RP-5 (no done reaction for a cancelled run), DI-5 (the run's draft is cancelled)
        model.enqueue(Reply.text("word ".repeat(300)).streamedInChunks(300).delayPerChunk(Duration.ofMillis(50)));
        start(Map.of("ack_reactions", "true", "stream_mode", "preview"));
        long asked = tg.sendText(dm, alice, "tell me a very long story");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().startsWith("word")));
        long draft = tg.sentTo(dm).getFirst().messageId();
        long stop = tg.sendText(dm, alice, "/stop");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.sentTo(dm).stream().anyMatch(m -> m.text().contains("Stopped")));
        await().until(() -> tg.calls("setMessageReaction").stream()
                        .filter(b -> b.path("message_id").asLong() == asked)
                        .count()
                == 2);
        List<JsonNode> onAsked = tg.calls("setMessageReaction").stream()
                .filter(b -> b.path("message_id").asLong() == asked)
                .toList();
        assertThat(onAsked.get(0).path("reaction").get(0).path("emoji").asText())
                .isEqualTo("👀");
        assertThat(onAsked.get(1).path("reaction")).isEmpty();
        assertThat(tg.reactions(dm, stop)).isEmpty();
        await().until(() -> tg.calls("deleteMessage").stream()
                .anyMatch(b -> b.path("message_id").asLong() == draft));
        assertThat(tg.sentTo(dm)).noneMatch(m -> m.messageId() == draft);
    }

    @Test
    void stopWhileTheFinalReplyIsOnTheWireAbandonsItAndTheOutboxMarksItUnknown() throws Exception {
        // SPEC OUT-11 (abort signals reach platform sends), OUT-7 (a send that may have arrived is unknown_after_send,
        // never resent)
        model.enqueue(Reply.text("the final words"));
        start(Map.of());
        tg.stallNext("sendMessage", Duration.ofSeconds(60)); // the fake takes the reply, then holds its answer
        tg.sendText(dm, alice, "say it");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> tg.calls("sendMessage").size() == 1);
        tg.sendText(dm, alice, "/stop");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.store()
                                .outbox()
                                .byState(OutboxState.UNKNOWN_AFTER_SEND)
                                .size()
                        == 1);
        assertThat(gateway.store()
                        .outbox()
                        .byState(OutboxState.UNKNOWN_AFTER_SEND)
                        .getFirst()
                        .detail())
                .contains("aborted in flight");
        assertThat(tg.calls("sendMessage").stream()
                        .filter(b -> b.path("text").asText().contains("the final words")))
                .hasSize(1);
        assertThat(gateway.store().outbox().byState(OutboxState.SENT, OutboxState.PENDING, OutboxState.SENDING))
                .isEmpty();
    }

    @Test
    void aRateLimitedSendWaitsTheRetryAfterTelegramNamed() throws Exception {
        // SPEC OUT-7 (never sooner than the platform's retry-after), CH-3
        model.enqueue(Reply.text("hello after the flood"));
        start(Map.of());
        tg.failNext("sendMessage", 429, 2);
        tg.sendText(dm, alice, "hi");
        assertThat(awaitSent(dm, 1).getFirst().text()).isEqualTo("hello after the flood");
        List<Instant> sends = tg.callTimes("sendMessage");
        assertThat(sends).hasSize(2);
        assertThat(Duration.between(sends.get(0), sends.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void aBlockedBotFailsTheReplyAtOnce() throws Exception {
        // SPEC OUT-7 (permanent errors fail at once), CH-3
        model.enqueue(Reply.text("you will never see this"));
        start(Map.of());
        tg.blockBot(alice);
        tg.sendText(dm, alice, "hi");
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        gateway.store().outbox().byState(OutboxState.FAILED).size() == 1);
        assertThat(tg.calls("sendMessage")).hasSize(1);
        assertThat(gateway.store()
                        .outbox()
                        .byState(OutboxState.FAILED)
                        .getFirst()
                        .toString())
                .contains("blocked");
    }

    @Test
    void rejectedFormattingIsResentAsPlainText() throws Exception {
        // SPEC CH-3 (plain-text fallback when Telegram rejects entities)
        model.enqueue(Reply.text("a **bold** claim"));
        start(Map.of());
        tg.failNext(
                "sendMessage",
                400,
                "Bad Request: can't parse entities: Unsupported start tag \"b\" at byte offset 2",
                null);
        tg.sendText(dm, alice, "hi");
        assertThat(awaitSent(dm, 1).getFirst().text()).isEqualTo("a **bold** claim");
        List<JsonNode> sends = tg.calls("sendMessage");
        assertThat(sends).hasSize(2);
        assertThat(sends.get(0).path("parse_mode").asText()).isEqualTo("HTML");
        assertThat(sends.get(1).has("parse_mode")).isFalse();
    }

    @Test
    void thePollingLoopRestartsAfterServerErrorsAndIsUnhealthyMeanwhile() throws Exception {
        // SPEC CH-0 (supervised, restarted with backoff, unhealthy meanwhile)
        model.enqueue(Reply.text("still here"));
        start(Map.of());
        await().until(() -> gateway.readiness().ready());
        for (int i = 0; i < 3; i++) tg.failNext("getUpdates", 500, 0);
        tg.sendText(dm, alice, "are you there?"); // wakes the current long poll, so the next ones meet the 500s
        await().atMost(Duration.ofSeconds(10)).until(() -> !gateway.readiness().ready());
        assertThat(gateway.readiness().parts().get("channel.telegram")).contains("polling failed");
        await().atMost(Duration.ofSeconds(20)).until(() -> gateway.readiness().ready());
        assertThat(awaitSent(dm, 1).getFirst().text()).isEqualTo("still here");
    }
}
