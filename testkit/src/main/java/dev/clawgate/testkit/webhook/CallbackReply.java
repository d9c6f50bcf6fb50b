package dev.clawgate.testkit.webhook;

import java.time.Instant;

/**
 * One reply the gateway posted to the platform's callback.
 *
 * @param status         the HTTP status the platform answered it with (200 unless scripted otherwise)
 * @param signatureValid whether its {@code X-Clawgate-Signature} matched the body under the shared secret
 */
public record CallbackReply(long turnId, String inReplyTo, String chat, String thread, String text, String kind,
                            Instant arrivedAt, int status, boolean signatureValid) {
    public boolean isFinal() {
        return "final".equals(kind);
    }

    /** Whether the platform took it (answered 2xx). */
    public boolean accepted() {
        return status / 100 == 2;
    }
}
