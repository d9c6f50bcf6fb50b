package dev.clawgate.core.outbound;

import dev.clawgate.core.render.ReplyToMode;
import java.util.Objects;

/**
 * How one payload asks to be sent (SPEC OUT-3, OUT-4).
 *
 * @param replyTo quote/thread the inbound message ({@code reply_to_mode} decided it)
 * @param silent send without a notification
 * @param nativeQuote use the platform's own quote of the inbound message
 * @param skipSendingHooks this path opts out of {@code on_message_sending} explicitly
 * @param threading for a reply cut into parts: which parts quote the inbound message ({@code off}, {@code first} or
 *     {@code all}; {@code batched} is decided by the turn before), applied when the reply is planned into payloads
 */
public record SendOptions(
        boolean replyTo, boolean silent, boolean nativeQuote, boolean skipSendingHooks, ReplyToMode threading) {
    public static final SendOptions DEFAULT = new SendOptions(true, false, false, false);

    public SendOptions {
        Objects.requireNonNull(threading, "threading");
        if (threading == ReplyToMode.BATCHED)
            throw new IllegalArgumentException("batched is decided by the turn, not kept with a reply");
    }

    /** Every part threads alike. */
    public SendOptions(boolean replyTo, boolean silent, boolean nativeQuote, boolean skipSendingHooks) {
        this(replyTo, silent, nativeQuote, skipSendingHooks, ReplyToMode.ALL);
    }

    /**
     * The options of a reply whose parts quote the inbound message as {@code mode} says (already decided, never
     * batched).
     */
    public static SendOptions threaded(ReplyToMode mode) {
        return new SendOptions(mode != ReplyToMode.OFF, false, false, false, mode);
    }

    /** The options of the {@code index}-th payload of a reply with these options. */
    public SendOptions forPart(int index) {
        boolean quotes = replyTo && threading.repliesTo(index, false);
        return quotes == replyTo ? this : new SendOptions(false, silent, nativeQuote, skipSendingHooks, threading);
    }

    public SendOptions withoutSilent() {
        return new SendOptions(replyTo, false, nativeQuote, skipSendingHooks, threading);
    }

    public SendOptions withoutReplyTo() {
        return new SendOptions(false, silent, nativeQuote, skipSendingHooks, threading);
    }

    public SendOptions withoutNativeQuote() {
        return new SendOptions(replyTo, silent, false, skipSendingHooks, threading);
    }
}
