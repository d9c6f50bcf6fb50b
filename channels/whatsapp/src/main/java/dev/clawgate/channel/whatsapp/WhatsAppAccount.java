package dev.clawgate.channel.whatsapp;

import java.net.URI;
import java.time.Duration;

/**
 * The WhatsApp Business phone number the channel serves (SPEC CH-12).
 *
 * @param accessToken the Graph API token (a System User token); null while not configured
 * @param phoneNumberId the business phone number's Graph id: replies go to {@code /{phone_number_id}/messages}
 * @param appSecret the Meta app's secret: {@code X-Hub-Signature-256} is its HMAC-SHA256 of each webhook body
 * @param verifyToken what Meta's subscription check ({@code hub.verify_token}) must carry
 * @param apiBase the Graph API root with its version, {@code https://graph.facebook.com/v21.0} by default
 * @param webhookPath where the gateway's HTTP server takes Meta's notifications
 * @param textLimit the longest text message sent, in UTF-16 units (WhatsApp takes 4096 characters)
 * @param ackReactions react 👀 on receipt, then ✅ or ⚠️ (SPEC RP-5)
 * @param callTimeout how long a Graph call may wait for its answer; past it the outcome is unknown
 */
record WhatsAppAccount(
        String accessToken,
        String phoneNumberId,
        String appSecret,
        String verifyToken,
        URI apiBase,
        String webhookPath,
        int textLimit,
        boolean ackReactions,
        Duration callTimeout) {
    /** The Cloud API's limit for {@code text.body}: 4096 characters. */
    static final int MAX_TEXT = 4096;

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    WhatsAppAccount withCallTimeout(Duration timeout) {
        return new WhatsAppAccount(
                accessToken,
                phoneNumberId,
                appSecret,
                verifyToken,
                apiBase,
                webhookPath,
                textLimit,
                ackReactions,
                timeout);
    }

    /** Secrets are never shown (SPEC OP-6). */
    @Override
    public String toString() {
        return "WhatsAppAccount[phoneNumberId=" + phoneNumberId + ", apiBase=" + apiBase
                + ", webhookPath=" + webhookPath
                + ", textLimit=" + textLimit + ", ackReactions=" + ackReactions + "]";
    }
}
