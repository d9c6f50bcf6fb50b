package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.server.channel.TerminalChannel;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.webhook.CallbackReply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code messages.max_chars} on every channel (SPEC OP-10; CH-1, CH-2, CH-3, CH-10 and the generic webhook): a longer
 * message is refused with a clear error to its sender, at once, and only a bounded refusal is stored; a message of
 * exactly the limit is answered. Before the fix an API request over the limit was stored whole and never answered.
 */
class MessageLimitTest extends TelegramGatewayFixture {
    private static final int DEFAULT = 100_000;
    private static final int SMALL = 50;

    /** The failed inbox records, by walking the ids the store gave out (from 1, in order). */
    private List<InboxRecord> failed() {
        return Stream.iterate(1L, id -> id + 1)
                .map(id -> gateway.store().inbox().find(id))
                .takeWhile(java.util.Optional::isPresent)
                .map(java.util.Optional::get)
                .filter(r -> r.state() == InboxState.FAILED)
                .toList();
    }

    private ClawgateConfig withMaxChars(ClawgateConfig c, int maxChars) {
        return c.withInbound(c.inbound().withMaxChars(maxChars));
    }

    private long dataBytes() {
        try (Stream<Path> files = Files.list(dir.resolve("data"))) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theApiRefusesAMessageOverTheDefaultLimitAtOnceAndAnswersOneOfExactlyTheLimit() throws Exception {
        // SPEC OP-10, CH-10: 100,001 characters get a clear 413 now (before: no answer at all), 100,000 an answer
        int port = serve(config());
        GatewayHarness.Reply over = GatewayHarness.chat(port, "long", "x".repeat(DEFAULT + 1), null);
        assertThat(over.status()).isEqualTo(413);
        assertThat(over.body().path("error").path("message").asText()).contains("too long", "100,001", "100,000");
        assertThat(model.chatRequests()).isEmpty();

        model.enqueue(Reply.text("read all of it"));
        GatewayHarness.Reply exact = GatewayHarness.chat(port, "long", "y".repeat(DEFAULT), null);
        assertThat(exact.status()).isEqualTo(200);
        assertThat(exact.content()).isEqualTo("read all of it");
        assertThat(model.lastRequest().lastUserText()).hasSize(DEFAULT);
    }

    @Test
    void aRefusedMessageIsStoredAsABoundedRefusalNotAsItsText() throws Exception {
        // SPEC OP-10, IN-4: two requests of ~900 KB (under the body limit, far over max_chars) add a small row each
        int port = serve(config());
        GatewayHarness.chat(port, "warmup", "/status", null);
        long before = dataBytes();
        for (int i = 0; i < 2; i++) {
            assertThat(GatewayHarness.chat(port, "big", "z".repeat(900_000), null)
                            .status())
                    .isEqualTo(413);
        }
        List<InboxRecord> refused = failed();
        assertThat(refused).hasSize(2).allSatisfy(r -> {
            assertThat(r.message().text()).isEmpty();
            assertThat(r.message().rawPayload()).isNull();
            assertThat(r.message().sender()).isEqualTo("big");
        });
        assertThat(dataBytes() - before).isLessThan(900_000);
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void aStreamedOrMultiPartApiRequestOverTheLimitIsRefusedToo() throws Exception {
        // SPEC OP-10, CH-10: the rule reads the message the API takes, whatever its shape
        int port = serve(withMaxChars(config(), SMALL));
        String parts = "{\"model\":\"clawgate\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"" + "a".repeat(SMALL / 2) + "\"},"
                + "{\"type\":\"text\",\"text\":\"" + "b".repeat(SMALL / 2)
                + "\"}]}]}";
        RawHttp.Response r = RawHttp.exchange(
                port,
                "POST",
                "/v1/chat/completions",
                "127.0.0.1:" + port,
                parts.getBytes(StandardCharsets.UTF_8),
                "Content-Type: application/json");
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.body()).contains("the limit is " + SMALL);
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void theWebChatAnswersAnOverlongMessageWithAnErrorFrameAndGoesOn() throws Exception {
        // SPEC OP-10, CH-2
        int port = serve(config());
        model.enqueue(Reply.text("exactly enough"));
        try (WebChatClient page = WebChatClient.open(port, GatewayRoutes.CLIENT, null)) {
            page.send("over", "w".repeat(DEFAULT + 1));
            JsonNode error = page.next();
            assertThat(error.path("type").asText()).isEqualTo("error");
            assertThat(error.path("id").asText()).isEqualTo("over");
            assertThat(error.path("text").asText()).contains("too long", "100,001", "100,000");
            page.send("exact", "v".repeat(DEFAULT));
            List<JsonNode> frames = page.untilDone("exact");
            assertThat(frames.get(frames.size() - 2).path("text").asText()).isEqualTo("exactly enough");
        }
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void theTerminalSaysWhyItSkipsAnOverlongLineAndFinishesTheRest() throws Exception {
        // SPEC OP-10, CH-1: piped input ends; a refused line must not leave it waiting for a reply that never comes
        model.enqueue(Reply.text("short one answered"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String input = "u".repeat(SMALL + 1) + "\nshort\n";
        TerminalChannel terminal = new TerminalChannel(
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                false,
                "tester");
        start(withMaxChars(config(), SMALL), GatewayOptions.with(terminal));
        await().atMost(Duration.ofSeconds(20)).until(terminal::finished);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("too long: 51 characters, the limit is 50", "short one answered");
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void telegramTellsTheSenderInTheChatAndMovesPastTheUpdate() throws Exception {
        // SPEC OP-10, CH-3, IN-3: the refusal is a message in the chat; the update is acknowledged like any other
        model.enqueue(Reply.text("the short one"));
        start(withMaxChars(config(Map.of()), SMALL));
        tg.sendText(dm, alice, "t".repeat(SMALL + 1));
        List<SentMessage> sent = awaitSent(dm, 1);
        assertThat(sent.getFirst().text()).contains("too long", "51 characters", "the limit is 50");
        tg.sendText(dm, alice, "t".repeat(SMALL));
        assertThat(awaitSent(dm, 2).get(1).text()).isEqualTo("the short one");
        await().until(() -> tg.confirmedOffset() > tg.lastUpdateId());
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(failed())
                .singleElement()
                .satisfies(r -> assertThat(r.message().text()).isEmpty());
    }

    @Test
    void theGenericWebhookAcceptsTheRefusalSoItIsNotSentAgainAndTellsTheChat() throws Exception {
        // SPEC OP-10: 200 with "refused" (any other answer would be repeated); the sender gets a notice on the callback
        String secret = "generic-webhook-secret-0123456789";
        try (FakeWebhookPlatform platform = FakeWebhookPlatform.start(secret)) {
            ClawgateConfig c = withMaxChars(config(), SMALL)
                    .withChannel(new ChannelSettings(
                            "webhook",
                            OPEN,
                            Map.of(),
                            Map.of(
                                    "path",
                                    "/webhooks/generic",
                                    "secret",
                                    secret,
                                    "callback_url",
                                    platform.callbackUrl()),
                            Map.of(),
                            ChannelOutput.defaults()));
            int port = serve(c);
            platform.deliverTo(URI.create("http://127.0.0.1:" + port + "/webhooks/generic"));
            FakeWebhookPlatform.Response answer =
                    platform.postOnce(PlatformMessage.direct("w1", "dora", "w".repeat(SMALL + 1)));
            assertThat(answer.status()).isEqualTo(200);
            assertThat(GatewayHarness.JSON
                            .readTree(answer.body())
                            .path("refused")
                            .asText())
                    .contains("too long", "the limit is 50");
            // a direct chat's replies quote nothing by default: the notice is told apart by its kind
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> !platform.replies().isEmpty());
            CallbackReply notice = platform.replies().getFirst();
            assertThat(notice.kind()).isEqualTo("notice");
            assertThat(notice.chat()).isEqualTo("dora");
            assertThat(notice.text()).contains("too long", "51 characters");
            // the platform sends it again anyway: a duplicate, no second notice
            PlatformMessage again = PlatformMessage.direct("w1", "dora", "w".repeat(SMALL + 1));
            assertThat(platform.postOnce(again).body()).contains("duplicate");
            model.enqueue(Reply.text("fits"));
            PlatformMessage exact = PlatformMessage.direct("w2", "dora", "w".repeat(SMALL));
            assertThat(platform.postOnce(exact).status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> platform.replies().stream().anyMatch(CallbackReply::isFinal));
            assertThat(platform.replies()).extracting(CallbackReply::kind).containsExactly("notice", "final");
        }
        assertThat(model.chatRequests()).hasSize(1);
    }
}
