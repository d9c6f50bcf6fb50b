package dev.clawgate.core.render;

import dev.clawgate.core.model.ChatType;
import java.util.Locale;

/**
 * Which outbound messages of a turn thread under, or quote, the inbound message (SPEC OUT-3,
 * {@code channels.<ch>.reply_to_mode}). A turn's messages are numbered from 0 in the order they are sent (chunks of a
 * reply, blocks of a streamed reply, media).
 */
public enum ReplyToMode {
    /** None does. */
    OFF,
    /** Only the first message of the turn. */
    FIRST,
    /** Every message of the turn. */
    ALL,
    /**
     * Only the first message, and only when the turn answers a debounced batch of inbound messages: then the quote
     * shows which message the reply is for; a single message needs none.
     */
    BATCHED;

    /** Whether the {@code index}-th outbound message of the turn replies to the inbound message. */
    public boolean repliesTo(int index, boolean debouncedBatch) {
        if (index < 0) throw new IllegalArgumentException("index must not be negative: " + index);
        return switch (this) {
            case OFF -> false;
            case FIRST -> index == 0;
            case ALL -> true;
            case BATCHED -> debouncedBatch && index == 0;
        };
    }

    /**
     * The mode for the messages of a turn still to be sent, numbered from 0 again, after {@code alreadySent} went out
     * (blocks of a streamed reply): {@code off}, {@code first} or {@code all}, with {@code batched} decided. What the
     * outbox keeps with a reply, so a replay threads its parts as the turn would have.
     */
    public ReplyToMode rest(int alreadySent, boolean debouncedBatch) {
        if (alreadySent < 0) throw new IllegalArgumentException("alreadySent must not be negative: " + alreadySent);
        return switch (this) {
            case OFF -> OFF;
            case ALL -> ALL;
            case FIRST -> alreadySent == 0 ? FIRST : OFF;
            case BATCHED -> debouncedBatch && alreadySent == 0 ? FIRST : OFF;
        };
    }

    /** The mode's config spelling: {@code off}, {@code first}, {@code all}, {@code batched}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The default: {@code first} in groups, {@code off} in direct chats. */
    public static ReplyToMode defaultFor(ChatType chatType) {
        return chatType == ChatType.GROUP ? FIRST : OFF;
    }

    /** The mode a config value names ({@code off | first | all | batched}, any case). */
    public static ReplyToMode parse(String value) {
        if (value == null) throw new IllegalArgumentException("reply_to_mode is missing");
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown reply_to_mode '" + value + "': expected off, first, all or batched", e);
        }
    }
}
