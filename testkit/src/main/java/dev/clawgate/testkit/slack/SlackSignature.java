package dev.clawgate.testkit.slack;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's request signature, computed the platform's way (docs.slack.dev/authentication/verifying-requests-from-slack):
 * {@code v0=} and the hex HMAC-SHA256, keyed with the app's signing secret, of
 * {@code v0:<X-Slack-Request-Timestamp>:<raw body>}.
 */
public final class SlackSignature {
    public static final String SIGNATURE_HEADER = "X-Slack-Signature";
    public static final String TIMESTAMP_HEADER = "X-Slack-Request-Timestamp";

    private final byte[] secret;

    public SlackSignature(String signingSecret) {
        this.secret = signingSecret.getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code X-Slack-Signature} value for {@code body} sent at Unix second {@code timestamp}. */
    public String sign(long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
            return "v0=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
