package dev.clawgate.channel.slack;

import java.net.URI;
import java.time.Duration;

/**
 * One Slack app installation the channel serves (SPEC CH-4): its tokens, how events arrive, and how replies are shaped.
 *
 * @param id {@code default} for {@code [channels.slack]}, else the account id
 * @param botToken the bot token ({@code xoxb-...}); null while not configured
 * @param signingSecret checks the Events API's {@code X-Slack-Signature} ({@code mode = "events"})
 * @param appToken the app-level token ({@code xapp-...}) that opens Socket Mode connections ({@code mode = "socket"})
 * @param apiBase the Web API root, {@code https://slack.com/api} unless a proxy or a test double stands in
 * @param webhookPath where the gateway's HTTP server takes Events API requests
 * @param textLimit the longest message text sent, in UTF-16 units
 * @param ackReactions react 👀 on receipt, then ✅ or ⚠️ (SPEC RP-5)
 * @param callTimeout how long a Web API call may wait for its answer; past it the outcome is unknown
 * @param preview {@code stream_mode = "preview"}: a {@code ...} draft edited with {@code chat.update} (SPEC OUT-9)
 */
record SlackAccount(
        String id,
        String botToken,
        String signingSecret,
        String appToken,
        Mode mode,
        URI apiBase,
        String webhookPath,
        int textLimit,
        boolean ackReactions,
        Duration callTimeout,
        boolean preview) {
    /** Slack's advice for a message's text: at most 4,000 characters (chat.postMessage, "Truncating content"). */
    static final int MAX_TEXT = 4000;

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** The least time between two edits of a live preview: chat.update is a Tier 3 method (about 50 a minute). */
    static final Duration PREVIEW_INTERVAL = Duration.ofSeconds(1);

    enum Mode {
        EVENTS,
        SOCKET
    }

    /** The same account whose Web API calls give up after {@code timeout}. */
    SlackAccount withCallTimeout(Duration timeout) {
        return new SlackAccount(
                id,
                botToken,
                signingSecret,
                appToken,
                mode,
                apiBase,
                webhookPath,
                textLimit,
                ackReactions,
                timeout,
                preview);
    }

    /** Secrets are never shown (SPEC OP-6). */
    @Override
    public String toString() {
        return "SlackAccount[id=" + id + ", mode=" + mode + ", apiBase=" + apiBase + ", webhookPath=" + webhookPath
                + ", textLimit=" + textLimit + ", ackReactions=" + ackReactions + ", preview=" + preview + "]";
    }
}
