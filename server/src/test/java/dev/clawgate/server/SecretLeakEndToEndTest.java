package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Attack class "secret leaks" (SPEC OP-6): the bot token and the provider key never reach a reply, an error sent to a
 * user, a log line at any level, the store an operator reads ({@code clawgate outbox}, the transcript) or
 * {@code /metrics}, even when the model provider and the Bot API echo them back in their errors, as proxies and
 * misconfigured servers do. Every line the gateway logs is scanned.
 */
class SecretLeakEndToEndTest extends TelegramGatewayFixture {
    /** The provider key of {@link GatewayHarness#config}. */
    private static final String KEY = "sk-test-key-0000";

    private static final String GATEWAY_TOKEN = "gateway-token-0123456789";

    private ClawgateConfig withAuthToken(ClawgateConfig c) {
        GatewaySettings g = new GatewaySettings(c.gateway().dataDir(), "127.0.0.1:0", GATEWAY_TOKEN);
        return new ClawgateConfig(
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
                c.channels());
    }

    /** Everything a leak could land in, as text. */
    private List<String> everywhere(CapturedAppLogs logs) throws Exception {
        List<String> all = new ArrayList<>(logs.atLeast(Level.DEBUG).stream()
                .filter(l -> !l.contains(" dev.clawgate.testkit."))
                .toList());
        tg.sent().forEach(m -> all.add(m.text() + " " + m.rawText()));
        for (OutboxEntry e : gateway.store().outbox().byState(OutboxState.values())) {
            all.add(e.detail() + " " + e.draft().text());
        }
        for (var s : gateway.store().transcripts().sessions()) {
            for (TranscriptEntry t : gateway.store().transcripts().load(s.key(), 1000)) all.add(t.content());
        }
        var scrape = GatewayHarness.get(gateway.httpPort(), "/metrics", GATEWAY_TOKEN);
        assertThat(scrape.statusCode()).isEqualTo(200);
        all.add(scrape.body());
        return all;
    }

    @Test
    void providerErrorsThatEchoTheKeyReachNeitherTheUserNorTheLogNorTheStore() throws Exception {
        // probes: a 401 that quotes the key, a 400 that quotes the key and the Authorization header, a 500 quoting it
        model.enqueue(
                Reply.apiError(
                        401,
                        "Incorrect API key provided: " + KEY + ". You can find your key at https://x",
                        "invalid_request_error",
                        "invalid_api_key"),
                Reply.apiError(
                        400, "bad request from Bearer " + KEY + " (key=" + KEY + ")", "invalid_request_error", null),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused " + KEY + "\"}}"),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused " + KEY + "\"}}"),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused " + KEY + "\"}}"));
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            start(withAuthToken(config(Map.of())), GatewayOptions.server());
            tg.sendText(dm, alice, "first");
            awaitSent(dm, 1);
            tg.sendText(dm, alice, "second");
            awaitSent(dm, 2);
            tg.sendText(dm, alice, "third");
            List<SentMessage> replies = awaitSent(dm, 3);
            assertThat(replies.get(0).text()).contains("refused our credentials");
            assertThat(replies.get(1).text()).contains("The model request failed");

            assertThat(everywhere(logs))
                    .isNotEmpty()
                    .noneMatch(s -> s.contains(KEY))
                    .noneMatch(s -> s.contains(TOKEN));
        }
    }

    @Test
    void botApiErrorsThatEchoTheTokenReachNeitherTheLogNorTheStore() throws Exception {
        // probes: getUpdates and sendMessage answered with the token in the description (a proxy's echo)
        model.enqueue(Reply.text("the answer"));
        String echo = "Bad Request: chat not found for bot" + TOKEN + " via " + tg.apiBase() + "/bot" + TOKEN;
        tg.failNext("sendMessage", 400, echo, null);
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            start(
                    withAuthToken(config(Map.of())).withChannel(telegram(Map.of(), ChannelOutput.defaults())),
                    GatewayOptions.server());
            tg.failNext("getUpdates", 502, "Bad Gateway at /bot" + TOKEN + "/getUpdates", null);
            tg.sendText(dm, alice, "hello");
            await().atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> !gateway.store()
                            .outbox()
                            .byState(OutboxState.FAILED)
                            .isEmpty());
            assertThat(gateway.store()
                            .outbox()
                            .byState(OutboxState.FAILED)
                            .getFirst()
                            .detail())
                    .contains("<token>");

            assertThat(everywhere(logs))
                    .isNotEmpty()
                    .noneMatch(s -> s.contains(TOKEN))
                    .noneMatch(s -> s.contains(KEY));
        }
    }

    @Test
    void providerErrorsThatEchoTheKeyNeverReachAnApiCallerNorTheProbes() throws Exception {
        // SPEC OP-6, CH-10: the API's own answers, /readyz and /metrics, with the provider
        // echoing the key in a 401 and a 500 (the key and the gateway token must appear in none of them)
        model.enqueue(
                Reply.apiError(401, "Incorrect API key provided: " + KEY, "invalid_request_error", "invalid_api_key"),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused Bearer " + KEY + "\"}}"),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused Bearer " + KEY + "\"}}"),
                Reply.error(500, "{\"error\":{\"message\":\"upstream refused Bearer " + KEY + "\"}}"));
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            start(withAuthToken(config(Map.of())), GatewayOptions.server());
            int port = gateway.httpPort();
            List<String> answers = new ArrayList<>();
            GatewayHarness.Reply whole = GatewayHarness.chat(port, "caller", "first", GATEWAY_TOKEN);
            answers.add(whole.raw());
            answers.add(
                    GatewayHarness.chat(port, "caller", "second", GATEWAY_TOKEN).raw());
            answers.add(GatewayHarness.get(port, "/readyz", GATEWAY_TOKEN).body());
            assertThat(answers).isNotEmpty().noneMatch(s -> s.contains(KEY)).noneMatch(s -> s.contains(GATEWAY_TOKEN));
            assertThat(whole.raw()).contains("refused our credentials");
            assertThat(everywhere(logs)).noneMatch(s -> s.contains(KEY)).noneMatch(s -> s.contains(GATEWAY_TOKEN));
        }
    }
}
