package dev.clawgate.testkit.webhook;

import java.time.Instant;

/**
 * One reply the gateway posted to the platform's callback.
 *
 * @param idempotencyKey the reply's {@code idempotency_key}, or null when it carried none
 * @param status what the platform decided: 2xx when it kept the reply (whether or not the answer reached the gateway)
 * @param signatureValid whether its {@code X-Clawgate-Signature} matched the body under the shared secret
 */
public record CallbackReply(
        long turnId,
        String inReplyTo,
        String chat,
        String thread,
        String text,
        String kind,
        String idempotencyKey,
        Instant arrivedAt,
        int status,
        boolean signatureValid) {
    public boolean isFinal() {
        return "final".equals(kind);
    }

    /** Whether the platform took it (kept it: 2xx). */
    public boolean accepted() {
        return status / 100 == 2;
    }
}
