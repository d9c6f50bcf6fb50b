package dev.clawgate.channel.telegram;

import java.net.URI;
import java.time.Duration;

/**
 * One bot of the Telegram channel: {@code [channels.telegram]} (account {@code default}) or
 * {@code [channels.telegram.accounts.<id>]}. Its {@link #toString()} never shows the token.
 *
 * @param webhookPath     where the gateway's HTTP server receives this bot's updates (webhook mode)
 * @param previewInterval the least time between two edits of a live preview in one chat
 */
public record TelegramAccount(String id, String botToken, URI apiBase, Mode mode, String webhookUrl, String webhookSecret,
                              String webhookPath, int textLimit, boolean preview, boolean ackReactions, Duration previewInterval) {

    public enum Mode { POLLING, WEBHOOK }

    /** Telegram counts 4096 UTF-16 code units per message (SPEC OUT-1, CH-3). */
    public static final int MAX_TEXT = 4096;

    @Override
    public String toString() {
        return "TelegramAccount[id=" + id + ", botToken=***, apiBase=" + apiBase + ", mode=" + mode + ", webhookPath=" + webhookPath
                + ", textLimit=" + textLimit + ", preview=" + preview + ", ackReactions=" + ackReactions + "]";
    }
}
