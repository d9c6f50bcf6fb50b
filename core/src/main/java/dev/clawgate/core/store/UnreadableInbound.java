package dev.clawgate.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A platform update a channel could not read (SPEC IN-4, CH-0): kept as failed, with its raw payload cut to
 * {@link #MAX_RAW_CHARS}, so an operator can see it ({@code clawgate inbox}, {@code clawgate doctor}) while the channel
 * acknowledges past it and the stream moves on.
 *
 * @param id the store's id; 0 before it is recorded
 * @param platformRef what the platform calls it (Telegram's {@code update_id}, a webhook's {@code id}), or "" when
 *     unknown
 * @param reason why it could not be read, one line
 * @param raw the payload as it came, at most {@link #MAX_RAW_CHARS} characters
 * @param rawLength how many characters the payload had before it was cut
 */
public record UnreadableInbound(
        long id,
        String channel,
        String account,
        String platformRef,
        String reason,
        String raw,
        int rawLength,
        Instant recordedAt) {
    /** Enough to see what was wrong with an update; a flood of huge ones cannot grow the store much (SPEC OP-7). */
    public static final int MAX_RAW_CHARS = 16 * 1024;
    /** The longest reason kept. */
    public static final int MAX_REASON_CHARS = 500;

    public UnreadableInbound {
        Objects.requireNonNull(channel, "channel");
        account = account == null || account.isBlank() ? "default" : account;
        platformRef = platformRef == null ? "" : cut(platformRef, 200);
        String oneLine = Objects.requireNonNullElse(reason, "unreadable")
                .replaceAll("\\s+", " ")
                .strip();
        reason = cut(oneLine, MAX_REASON_CHARS);
        raw = raw == null ? "" : raw;
        if (raw.length() > MAX_RAW_CHARS) {
            rawLength = Math.max(rawLength, raw.length());
            raw = cut(raw, MAX_RAW_CHARS);
        }
        rawLength = Math.max(rawLength, raw.length());
    }

    /** A new one, not yet recorded: {@code raw} is cut here. */
    public static UnreadableInbound of(String channel, String account, String platformRef, String reason, String raw) {
        int length = raw == null ? 0 : raw.length();
        return new UnreadableInbound(0, channel, account, platformRef, reason, raw, length, null);
    }

    /** Whether {@link #raw} is only the start of what came. */
    public boolean rawCut() {
        return rawLength > raw.length();
    }

    /** {@code s} at most {@code max} characters long, never ending inside a surrogate pair. */
    private static String cut(String s, int max) {
        if (s.length() <= max) return s;
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end);
    }
}
