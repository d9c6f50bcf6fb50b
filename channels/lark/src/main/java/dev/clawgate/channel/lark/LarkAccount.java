package dev.clawgate.channel.lark;

import java.net.URI;
import java.time.Duration;

/**
 * One Lark/Feishu app, as {@code [channels.lark]} sets it (SPEC CH-11).
 *
 * @param verificationToken null in websocket mode when not set (only pushes to the request URL carry it)
 * @param encryptKey null when no Encrypt Key is set: events then come in plain JSON, unsigned, and only the
 *     verification token proves them
 */
record LarkAccount(
        String appId,
        String appSecret,
        String mode,
        URI apiBase,
        String webhookPath,
        String verificationToken,
        String encryptKey,
        boolean preview,
        boolean ackReactions,
        int textLimit,
        Duration callTimeout) {
    static final int DEFAULT_TEXT = 4000;
    /** A text message's content may be 150 KB; a chunk stays well inside it. */
    static final int MAX_TEXT = 30_000;

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /** {@code mode = "websocket"}: events over the long connection rather than pushed to {@code webhook_path}. */
    boolean longConnection() {
        return "websocket".equals(mode);
    }

    @Override
    public String toString() {
        return "LarkAccount[appId=" + appId + ", apiBase=" + apiBase + ", webhookPath=" + webhookPath + "]";
    }
}
