package dev.clawgate.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each provider's own overflow wording goes through the one detector (SPEC HI-5). */
class OverflowDetectorTest {

    // SPEC HI-5: Anthropic's two wordings, as the error message and as the whole error body
    @ParameterizedTest
    @ValueSource(
            strings = {
                "prompt is too long: 208310 tokens > 200000 maximum",
                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: "
                        + "201234 tokens > 200000 maximum\"}}",
                "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length "
                        + "or `max_tokens` and try again",
                "invalid_request_error: input length and max_tokens exceed context limit: 199759 + 8192 > 200000"
            })
    void anthropicOverflowWordingIsAnOverflow(String text) {
        assertThat(OverflowDetector.isContextOverflow(text)).isTrue();
    }

    // SPEC HI-5: Anthropic's other invalid requests are not overflows
    @ParameterizedTest
    @ValueSource(
            strings = {
                "messages: roles must alternate between \"user\" and \"assistant\", but found multiple \"user\" roles "
                        + "in a row",
                "max_tokens: Field required",
                "max_tokens: 300000 > 64000, which is the maximum allowed number of output tokens for "
                        + "claude-sonnet-4-5",
                "Request exceeds the maximum allowed number of bytes.",
                "Overloaded"
            })
    void anthropicsOtherInvalidRequestsAreNotOverflows(String text) {
        assertThat(OverflowDetector.isContextOverflow(text)).isFalse();
    }
}
