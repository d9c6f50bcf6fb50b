package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

// The signature that authenticates webhook requests and callbacks (SPEC IN-5).
class WebhookSignatureTest {
    private static final byte[] RFC_DATA = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
    private static final String RFC_MAC = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

    @Test
    void signsWithHmacSha256AsRfc4231Says() {
        // SPEC IN-5: RFC 4231 test case 2
        assertThat(new WebhookSignature("Jefe").sign(RFC_DATA)).isEqualTo("sha256=" + RFC_MAC);
    }

    @Test
    void acceptsTheRightSignatureInEitherHexCaseAndPrefixCase() {
        // SPEC IN-5
        WebhookSignature sig = new WebhookSignature("Jefe");
        assertThat(sig.verifies(RFC_DATA, "sha256=" + RFC_MAC)).isTrue();
        assertThat(sig.verifies(RFC_DATA, "SHA256=" + RFC_MAC.toUpperCase())).isTrue();
        assertThat(sig.verifies(RFC_DATA, "  sha256=" + RFC_MAC + " ")).isTrue();
    }

    @Test
    void rejectsAnyOtherBodySecretOrShape() {
        // SPEC IN-5: a bad signature is refused
        WebhookSignature sig = new WebhookSignature("Jefe");
        assertThat(sig.verifies(
                        "what do ya want for nothing!".getBytes(StandardCharsets.US_ASCII), "sha256=" + RFC_MAC))
                .isFalse();
        assertThat(new WebhookSignature("jefe").verifies(RFC_DATA, "sha256=" + RFC_MAC))
                .isFalse();
        assertThat(sig.verifies(RFC_DATA, null)).isFalse();
        assertThat(sig.verifies(RFC_DATA, RFC_MAC)).isFalse();
        assertThat(sig.verifies(RFC_DATA, "sha1=" + RFC_MAC)).isFalse();
        assertThat(sig.verifies(RFC_DATA, "sha256=zz" + RFC_MAC.substring(2))).isFalse();
        assertThat(sig.verifies(RFC_DATA, "sha256=" + RFC_MAC.substring(0, 62))).isFalse();
        assertThat(sig.verifies(RFC_DATA, "sha256=")).isFalse();
    }
}
