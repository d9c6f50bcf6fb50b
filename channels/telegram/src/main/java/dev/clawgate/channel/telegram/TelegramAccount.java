package dev.clawgate.channel.telegram;

import dev.clawgate.core.channel.AckPolicy;
import java.net.URI;
import java.time.Duration;

/**
 * One bot of the Telegram channel: {@code [channels.telegram]} (account {@code default}) or
 * {@code [channels.telegram.accounts.<id>]}. Its {@link #toString()} never shows the token.
 *
 * @param webhookPath where the gateway's HTTP server receives this bot's updates (webhook mode)
 * @param previewInterval the least time between two edits of a live preview in one chat
 * @param ackPolicy when a polled update is confirmed (SPEC IN-3): {@code after_receive_record} (the default) or
 *     {@code after_durable_send}; a webhook is always answered after the record
 * @param mediaMaxAge downloaded media unused this long are removed ({@code media_max_age_hours}, SPEC OP-7)
 * @param mediaMaxBytes the most downloaded media kept, oldest removed first ({@code media_max_total_mb}, SPEC OP-7)
 */
public record TelegramAccount(
        String id,
        String botToken,
        URI apiBase,
        Mode mode,
        String webhookUrl,
        String webhookSecret,
        String webhookPath,
        int textLimit,
        boolean preview,
        boolean ackReactions,
        Duration previewInterval,
        AckPolicy ackPolicy,
        Duration mediaMaxAge,
        long mediaMaxBytes) {

    public enum Mode {
        POLLING,
        WEBHOOK
    }

    /** Downloaded media kept by default: a week, at most 1 GiB per bot. */
    public static final Duration DEFAULT_MEDIA_MAX_AGE = Duration.ofDays(7);

    public static final long DEFAULT_MEDIA_MAX_BYTES = 1024L * 1024 * 1024;

    public TelegramAccount {
        ackPolicy = ackPolicy == null ? AckPolicy.AFTER_RECEIVE_RECORD : ackPolicy;
        mediaMaxAge = mediaMaxAge == null ? DEFAULT_MEDIA_MAX_AGE : mediaMaxAge;
        if (mediaMaxAge.isNegative() || mediaMaxAge.isZero() || mediaMaxBytes <= 0) {
            throw new IllegalArgumentException("telegram account " + id + ": media limits must be positive");
        }
        if (ackPolicy != AckPolicy.AFTER_RECEIVE_RECORD
                && (ackPolicy != AckPolicy.AFTER_DURABLE_SEND || mode == Mode.WEBHOOK)) {
            throw new IllegalArgumentException(
                    "telegram account " + id + " cannot ack " + ackPolicy + " in " + mode + " mode");
        }
    }

    /** An account acking after the inbox record (SPEC IN-3, Telegram's default). */
    public TelegramAccount(
            String id,
            String botToken,
            URI apiBase,
            Mode mode,
            String webhookUrl,
            String webhookSecret,
            String webhookPath,
            int textLimit,
            boolean preview,
            boolean ackReactions,
            Duration previewInterval) {
        this(
                id,
                botToken,
                apiBase,
                mode,
                webhookUrl,
                webhookSecret,
                webhookPath,
                textLimit,
                preview,
                ackReactions,
                previewInterval,
                AckPolicy.AFTER_RECEIVE_RECORD);
    }

    /** An account keeping downloaded media for the default time and size. */
    public TelegramAccount(
            String id,
            String botToken,
            URI apiBase,
            Mode mode,
            String webhookUrl,
            String webhookSecret,
            String webhookPath,
            int textLimit,
            boolean preview,
            boolean ackReactions,
            Duration previewInterval,
            AckPolicy ackPolicy) {
        this(
                id,
                botToken,
                apiBase,
                mode,
                webhookUrl,
                webhookSecret,
                webhookPath,
                textLimit,
                preview,
                ackReactions,
                previewInterval,
                ackPolicy,
                DEFAULT_MEDIA_MAX_AGE,
                DEFAULT_MEDIA_MAX_BYTES);
    }

    /** Telegram counts 4096 UTF-16 code units per message (SPEC OUT-1, CH-3). */
    public static final int MAX_TEXT = 4096;

    @Override
    public String toString() {
        return "TelegramAccount[id=" + id + ", botToken=***, apiBase=" + apiBase + ", mode=" + mode + ", webhookPath="
                + webhookPath
                + ", textLimit=" + textLimit + ", preview=" + preview + ", ackReactions=" + ackReactions
                + ", ackPolicy=" + ackPolicy
                + ", mediaMaxAge=" + mediaMaxAge + ", mediaMaxBytes=" + mediaMaxBytes + "]";
    }
}
