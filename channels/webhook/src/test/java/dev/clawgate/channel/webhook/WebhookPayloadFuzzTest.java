package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;

/**
 * Coverage-guided fuzzing of the webhook payload parser (SPEC IN-2, SEC) with Jazzer: any body is either a well-formed
 * message or {@link WebhookPayload.Invalid} with a reason, never another exception. Regression inputs (and any crash
 * found) live in {@code WebhookPayloadFuzzTestInputs}.
 */
class WebhookPayloadFuzzTest {
    // SPEC IN-2: the short run of every verify build
    @FuzzTest(maxDuration = "15s")
    void shortRunAnyBodyIsAMessageOrAReason(byte[] body) {
        anyBodyIsAMessageOrAReason(body);
    }

    // SPEC IN-2: the long run of the fuzz profile
    @FuzzTest(maxDuration = "10m")
    void longRunAnyBodyIsAMessageOrAReason(byte[] body) {
        anyBodyIsAMessageOrAReason(body);
    }

    static void anyBodyIsAMessageOrAReason(byte[] body) {
        try {
            InboundMessage m = WebhookPayload.parse(body, "webhook", () -> Instant.EPOCH);
            assertThat(m.text()).isNotBlank();
            assertThat(m.sender()).isNotBlank();
            assertThat(m.replyTarget()).isNotBlank();
        } catch (WebhookPayload.Invalid e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
