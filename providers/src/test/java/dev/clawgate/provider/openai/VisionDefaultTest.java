package dev.clawgate.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.provider.anthropic.AnthropicProvider;
import org.junit.jupiter.api.Test;

/** Which providers claim vision (SPEC AG-4, HI-3): the {@code vision} key, else the kind's documented default. */
class VisionDefaultTest {
    private static ProviderSettings openai(String baseUrl, Boolean vision) {
        return new ProviderSettings("p", "openai", baseUrl, null, null, "m", 30, null, vision);
    }

    @Test
    void openAisOwnApiHasVisionAndOtherServersDoNotUnlessTheySaySo() {
        // SPEC AG-4, HI-3
        assertThat(new OpenAiProvider(openai(null, null)).capabilities().vision())
                .isTrue();
        assertThat(new OpenAiProvider(openai("https://api.openai.com/v1", null))
                        .capabilities()
                        .vision())
                .isTrue();
        assertThat(new OpenAiProvider(openai("http://127.0.0.1:11434/v1", null))
                        .capabilities()
                        .vision())
                .isFalse();
        assertThat(new OpenAiProvider(openai("https://openrouter.ai/api/v1", null))
                        .capabilities()
                        .vision())
                .isFalse();
        assertThat(new OpenAiProvider(openai("http://127.0.0.1:11434/v1", true))
                        .capabilities()
                        .vision())
                .isTrue();
        assertThat(new OpenAiProvider(openai(null, false)).capabilities().vision())
                .isFalse();
    }

    @Test
    void anthropicHasVisionUnlessTurnedOff() {
        // SPEC AG-4
        ProviderSettings on =
                new ProviderSettings("c", "anthropic", "http://127.0.0.1:9", null, null, "m", 30, 100, null);
        ProviderSettings off =
                new ProviderSettings("c", "anthropic", "http://127.0.0.1:9", null, null, "m", 30, 100, false);
        assertThat(new AnthropicProvider(on).capabilities().vision()).isTrue();
        assertThat(new AnthropicProvider(off).capabilities().vision()).isFalse();
    }
}
