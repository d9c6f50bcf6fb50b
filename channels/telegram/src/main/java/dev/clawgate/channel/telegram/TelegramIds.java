package dev.clawgate.channel.telegram;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundTarget;

/** Telegram's ids as the adapter reads them from a target: chat, thread and message ids are whole numbers (CH-3). */
final class TelegramIds {
    private TelegramIds() {}

    /**
     * Telegram's chat ids are whole numbers (SPEC CH-3); anything else (a line break, a header, a path) never reaches a
     * request: the send fails for good, before any platform I/O.
     */
    static long chatId(OutboundTarget target) throws DeliveryException {
        return whole(target.replyTarget(), "chat id");
    }

    /** The chat id, or null when it is not a number (then typing, reactions and previews are skipped, never sent). */
    static Long chatOrNull(OutboundTarget target) {
        try {
            return Long.valueOf(target.replyTarget());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether {@code value} is absent or a whole number Telegram can take. */
    static boolean numericOrNull(String value) {
        if (value == null) return true;
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static Long threadId(OutboundTarget target) throws DeliveryException {
        return target.threadId() == null ? null : whole(target.threadId(), "thread id");
    }

    static long whole(String value, String what) throws DeliveryException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new DeliveryException(
                    "telegram " + what + " is not a number", DeliveryException.Kind.PERMANENT, null, e);
        }
    }

    /** The message id in an inbound id {@code <chat_id>:<message_id>}, or null. */
    static Long messageId(String inboundId) {
        if (inboundId == null) return null;
        int colon = inboundId.lastIndexOf(':');
        try {
            return Long.parseLong(colon < 0 ? inboundId : inboundId.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
