package dev.clawgate.core.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

// SPEC OUT-3
class ResponsePrefixTest {

    // SPEC OUT-3: the most specific level that sets a prefix wins
    @Test
    void mostSpecificPrefixWins() {
        assertThat(ResponsePrefix.resolve("[global]", null, null)).isEqualTo("[global]");
        assertThat(ResponsePrefix.resolve("[global]", "[channel]", null)).isEqualTo("[channel]");
        assertThat(ResponsePrefix.resolve("[global]", "[channel]", "[account]")).isEqualTo("[account]");
        assertThat(ResponsePrefix.resolve(null, null, "[account]")).isEqualTo("[account]");
        assertThat(ResponsePrefix.resolve(null, null, null)).isEmpty();
    }

    // SPEC OUT-3: "" stops the cascade
    @Test
    void emptyPrefixStopsTheCascade() {
        assertThat(ResponsePrefix.resolve("[global]", "", null)).isEmpty();
        assertThat(ResponsePrefix.resolve("[global]", "[channel]", "")).isEmpty();
        assertThat(ResponsePrefix.resolve("", "[channel]", null)).isEqualTo("[channel]");
    }

    // SPEC OUT-3: template variables
    @Test
    void rendersModelProviderAndIdentityName() {
        assertThat(ResponsePrefix.render("[{identity.name} via {provider}/{model}]", "gpt-5", "openai", "Claw"))
                .isEqualTo("[Claw via openai/gpt-5]");
        assertThat(ResponsePrefix.render("{MODEL}", Map.of("model", "m"))).isEqualTo("m");
    }

    // SPEC OUT-3
    @Test
    void unknownOrMissingVariablesAreLeftAsWritten() {
        assertThat(ResponsePrefix.render("{model} {unknown} {provider} {} {1x}", "m", null, null))
                .isEqualTo("m {unknown} {provider} {} {1x}");
        assertThat(ResponsePrefix.render("cost: $1 {model}", "a$b\\c", null, null))
                .isEqualTo("cost: $1 a$b\\c");
        assertThat(ResponsePrefix.render("", "m", "p", "n")).isEmpty();
        assertThat(ResponsePrefix.render(null, Map.of())).isEmpty();
    }

    // SPEC OUT-3
    @Test
    void prefixIsSeparatedFromTheReplyBySpaceUnlessItEndsInWhitespace() {
        assertThat(ResponsePrefix.apply("\uD83E\uDD9E", "hi")).isEqualTo("\uD83E\uDD9E hi");
        assertThat(ResponsePrefix.apply("[bot]\n", "hi")).isEqualTo("[bot]\nhi");
        assertThat(ResponsePrefix.apply("", "hi")).isEqualTo("hi");
        assertThat(ResponsePrefix.apply(null, "hi")).isEqualTo("hi");
        assertThat(ResponsePrefix.apply("[bot] ", "")).isEqualTo("[bot]");
        assertThat(ResponsePrefix.apply("[bot]", null)).isEqualTo("[bot]");
    }
}
