package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.AckPolicy;
import java.net.URI;
import java.time.Duration;

/**
 * One bot of the Telegram channel: {@code [channels.telegram]} (account {@code default}) or
 * {@code [channels.telegram.accounts.<id>]}. Its {@link #toString()} never shows the token.
 *
 * @param webhookPath     where the gateway's HTTP server receives this bot's updates (webhook mode)
 * @param previewInterval the least time between two edits of a live preview in one chat
 * @param ackPolicy       when a polled update is confirmed (SPEC IN-3): {@code after_receive_record} (the
 *                        default) or {@code after_durable_send}; a webhook is always answered after the record
 */
public record TelegramAccount(String id, String botToken, URI apiBase, Mode mode, String webhookUrl, String webhookSecret,
                              String webhookPath, int textLimit, boolean preview, boolean ackReactions, Duration previewInterval,
                              AckPolicy ackPolicy) {

    public enum Mode { POLLING, WEBHOOK }

    public TelegramAccount {
        ackPolicy = ackPolicy == null ? AckPolicy.AFTER_RECEIVE_RECORD : ackPolicy;
        if (ackPolicy != AckPolicy.AFTER_RECEIVE_RECORD && (ackPolicy != AckPolicy.AFTER_DURABLE_SEND || mode == Mode.WEBHOOK)) {
            throw new IllegalArgumentException("telegram account " + id + " cannot ack " + ackPolicy + " in " + mode + " mode");
        }
    }

    /** An account acking after the inbox record (SPEC IN-3, Telegram's default). */
    public TelegramAccount(String id, String botToken, URI apiBase, Mode mode, String webhookUrl, String webhookSecret,
                           String webhookPath, int textLimit, boolean preview, boolean ackReactions, Duration previewInterval) {
        this(id, botToken, apiBase, mode, webhookUrl, webhookSecret, webhookPath, textLimit, preview, ackReactions, previewInterval,
                AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** Telegram counts 4096 UTF-16 code units per message (SPEC OUT-1, CH-3). */
    public static final int MAX_TEXT = 4096;

    @Override
    public String toString() {
        return "TelegramAccount[id=" + id + ", botToken=***, apiBase=" + apiBase + ", mode=" + mode + ", webhookPath=" + webhookPath
                + ", textLimit=" + textLimit + ", preview=" + preview + ", ackReactions=" + ackReactions + ", ackPolicy=" + ackPolicy + "]";
    }
}
