package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A photo sent on Telegram reaches the model as an image only when the provider has vision (SPEC AG-4, HI-3). */
class VisionEndToEndTest {
    private static final String TOKEN = "123456:vision-token_xyz";
    private static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, (byte) 0xFF, (byte) 0xD9};

    @TempDir
    Path dir;
    private FakeOpenAiServer model;
    private FakeTelegramServer tg;
    private Gateway gateway;
    private TelegramUser alice;
    private TelegramChat dm;

    @BeforeEach
    void startFakes() {
        model = FakeOpenAiServer.start();
        tg = FakeTelegramServer.start(TOKEN, "clawbot");
        alice = tg.user(111, "alice");
        dm = tg.privateChat(alice);
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        tg.close();
        model.close();
    }

    /** The gateway with one OpenAI-compatible provider on the fake's loopback URL; {@code vision} null leaves the default. */
    private void start(Boolean vision) throws Exception {
        ClawgateConfig c = GatewayHarness.config(dir, model.baseUrl(), null);
        ProviderSettings fake = new ProviderSettings("fake", "openai", model.baseUrl(), "sk-test-key-0000", true, "gpt-test", 30, null, vision);
        AccessSettings open = new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
        ClawgateConfig cfg = new ClawgateConfig(new GatewaySettings(dir.resolve("data"), "127.0.0.1:0", null), c.agent(),
                Map.of("fake", fake), c.routes(), c.history(), c.tools(), c.dispatch(), c.session(), c.inbound(), c.queue(),
                Map.of("telegram", new ChannelSettings("telegram", open, Map.of(), Map.of("bot_token", TOKEN, "api_base", tg.apiBase()),
                        Map.of())));
        gateway = Gateway.start(cfg, Gateway.Options.with());
    }

    private String userContentOfOnlyRequest() {
        tg.sendPhoto(dm, alice, JPEG, "what is this?");
        await().atMost(Duration.ofSeconds(20)).until(() -> tg.sentTo(dm).size() >= 1);
        assertThat(model.chatRequests()).hasSize(1);
        RecordedRequest r = model.chatRequests().getFirst();
        return r.messages().get(r.messages().size() - 1).path("content").toString();
    }

    @Test
    void aProviderWithVisionFalseReceivesNoImageContentNorMarker() throws Exception {
        // SPEC HI-3: for providers without vision, [IMAGE:...] markers are removed
        model.enqueue(Reply.text("I cannot see images."));
        start(false);
        String content = userContentOfOnlyRequest();
        assertThat(content).contains("what is this?").doesNotContain("image_url", "data:image", "[IMAGE:");
        assertThat(model.lastRequest().bodyText()).doesNotContain("image_url", "data:image");
    }

    @Test
    void aLocalOpenAiCompatibleServerDefaultsToNoVision() throws Exception {
        // SPEC AG-4, HI-3: the documented default for a base_url other than OpenAI's own API
        model.enqueue(Reply.text("I cannot see images."));
        start(null);
        assertThat(userContentOfOnlyRequest()).doesNotContain("image_url", "[IMAGE:");
    }

    @Test
    void aProviderWithVisionTrueGetsThePhotoInlined() throws Exception {
        // SPEC AG-4: markers become base64 data URIs for vision providers
        model.enqueue(Reply.text("A tiny JPEG."));
        start(true);
        String content = userContentOfOnlyRequest();
        assertThat(content).contains("image_url", "data:image/jpeg;base64,", "what is this?");
    }
}
