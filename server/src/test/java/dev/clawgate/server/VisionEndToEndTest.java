package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A photo sent on Telegram reaches the model as an image only when the provider has vision (SPEC AG-4, HI-3). */
class VisionEndToEndTest extends TelegramGatewayFixture {
    private static final byte[] JPEG = {
        (byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, (byte) 0xFF, (byte) 0xD9
    };

    /**
     * The gateway with one OpenAI-compatible provider on the fake's loopback URL; {@code vision} null leaves the
     * default.
     */
    private void startWithVision(Boolean vision) throws Exception {
        ClawgateConfig c = config(Map.of());
        ProviderSettings fake = new ProviderSettings(
                "fake", "openai", model.baseUrl(), "sk-test-key-0000", true, "gpt-test", 30, null, vision);
        start(new ClawgateConfig(
                c.gateway(),
                c.agent(),
                Map.of("fake", fake),
                c.routes(),
                c.history(),
                c.tools(),
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels()));
    }

    private String userContentOfOnlyRequest() {
        tg.sendPhoto(dm, alice, JPEG, "what is this?");
        awaitSent(dm, 1);
        assertThat(model.chatRequests()).hasSize(1);
        RecordedRequest r = model.chatRequests().getFirst();
        return r.messages().get(r.messages().size() - 1).path("content").toString();
    }

    @Test
    void aProviderWithVisionFalseReceivesNoImageContentNorMarker() throws Exception {
        // SPEC HI-3: for providers without vision, [IMAGE:...] markers are removed
        model.enqueue(Reply.text("I cannot see images."));
        startWithVision(false);
        String content = userContentOfOnlyRequest();
        assertThat(content).contains("what is this?").doesNotContain("image_url", "data:image", "[IMAGE:");
        assertThat(model.lastRequest().bodyText()).doesNotContain("image_url", "data:image");
    }

    @Test
    void aLocalOpenAiCompatibleServerDefaultsToNoVision() throws Exception {
        // SPEC AG-4, HI-3: the documented default for a base_url other than OpenAI's own API
        model.enqueue(Reply.text("I cannot see images."));
        startWithVision(null);
        assertThat(userContentOfOnlyRequest()).doesNotContain("image_url", "[IMAGE:");
    }

    @Test
    void aProviderWithVisionTrueGetsThePhotoInlined() throws Exception {
        // SPEC AG-4: markers become base64 data URIs for vision providers
        model.enqueue(Reply.text("A tiny JPEG."));
        startWithVision(true);
        String content = userContentOfOnlyRequest();
        assertThat(content).contains("image_url", "data:image/jpeg;base64,", "what is this?");
    }
}
