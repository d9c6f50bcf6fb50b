package dev.clawgate.channel.discord;

import java.net.URI;
import java.time.Duration;

/**
 * One Discord bot the channel serves (SPEC CH-5): its token, where its API and Gateway are, and how replies are shaped.
 *
 * @param id {@code default} for {@code [channels.discord]}, else the account id
 * @param botToken the bot token (sent as {@code Authorization: Bot <token>}); null while not configured
 * @param apiBase the HTTP API root, {@code https://discord.com/api/v10} unless a proxy or a test double stands in
 * @param gatewayUrl the Gateway URL to connect to, or null to ask {@code GET /gateway/bot}
 * @param messageContent request the privileged Message Content intent (else only DMs and mentions carry content)
 * @param textLimit the longest message content sent, in UTF-16 units (Discord: 2000)
 * @param ackReactions react 👀 on receipt, then ✅ or ⚠️ (SPEC RP-5)
 * @param preview {@code stream_mode = "preview"}: a {@code ...} draft edited with Edit Message (SPEC OUT-9)
 */
record DiscordAccount(
        String id,
        String botToken,
        URI apiBase,
        URI gatewayUrl,
        boolean messageContent,
        int textLimit,
        boolean ackReactions,
        boolean preview) {
    /** Create Message: "up to 2000 characters". */
    static final int MAX_TEXT = 2000;
    /** Lines per message before Discord folds a message behind "show more"; the SPEC's "at most 17 lines" (OUT-1). */
    static final int MAX_LINES = 17;

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** The least time between two edits of a live preview: Edit Message's bucket allows about 5 per 5 s. */
    static final Duration PREVIEW_INTERVAL = Duration.ofMillis(1200);

    /** Secrets are never shown (SPEC OP-6). */
    @Override
    public String toString() {
        return "DiscordAccount[id=" + id + ", apiBase=" + apiBase + ", gatewayUrl=" + gatewayUrl + ", messageContent="
                + messageContent
                + ", textLimit=" + textLimit + ", ackReactions=" + ackReactions + ", preview=" + preview + "]";
    }
}
