package dev.clawgate.channel.qq;

import java.net.URI;
import java.time.Duration;

/**
 * The QQ bot {@code [channels.qq]} sets up (SPEC CH-13).
 *
 * @param appId the bot's AppID (QQ open platform, development settings)
 * @param clientSecret the bot's AppSecret: fetches the access token and, in webhook mode, seeds the ed25519 key
 * @param webhook {@code mode = "webhook"}: events are pushed to {@code webhookPath}; else the WebSocket gateway
 * @param apiBase the OpenAPI root ({@code https://api.sgroup.qq.com}, or the sandbox's)
 * @param tokenUrl where {@code getAppAccessToken} is asked
 * @param gatewayUrl the gateway WebSocket URL, or null to ask {@code GET /gateway}
 * @param textLimit the longest text sent in one message, in characters
 * @param callTimeout how long an API call may wait for its answer; past it the outcome is unknown
 */
record QqAccount(
        String appId,
        String clientSecret,
        boolean webhook,
        URI apiBase,
        URI tokenUrl,
        URI gatewayUrl,
        String webhookPath,
        boolean sandbox,
        boolean ackReactions,
        int textLimit,
        Duration callTimeout) {
    static final int DEFAULT_TEXT = 2000;
    static final int MAX_TEXT = 5000;
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /** The secret is never shown (SPEC OP-6). */
    @Override
    public String toString() {
        return "QqAccount[appId=" + appId + ", webhook=" + webhook + ", apiBase=" + apiBase + ", sandbox=" + sandbox
                + ", textLimit=" + textLimit + "]";
    }
}
