package dev.clawgate.channel.irc;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.List;

/**
 * A PRIVMSG as an inbound message (SPEC CH-7): every query is a DM; a channel line is a mention only when addressed
 * ({@code nick: ...} or {@code nick, ...}), and context otherwise.
 */
final class IrcInbound {
    private IrcInbound() {}

    /** The message {@code l} brings, or null for a line that is none (a server notice, CTCP). */
    static InboundMessage message(String channelName, IrcLine l, String nick) {
        if (!l.prefix().contains("!")) return null;
        String target = l.param(0);
        String text = l.trailing();
        if (text.startsWith("\u0001")) return null; // CTCP (VERSION, ACTION, ...): not a message to the agent
        String from = l.nick();
        boolean direct = target.equalsIgnoreCase(nick);
        boolean mentioned = direct;
        if (!direct) {
            String addressed = addressedText(text, nick);
            if (addressed != null) {
                mentioned = true;
                text = addressed;
            }
        }
        return new InboundMessage(
                null,
                channelName,
                InboundMessage.DEFAULT_ACCOUNT,
                from,
                from,
                direct ? from : target,
                null,
                null,
                direct ? ChatType.DIRECT : ChatType.GROUP,
                mentioned,
                Instant.now(),
                text,
                List.of(),
                null);
    }

    /**
     * The text after {@code nick:} or {@code nick,} at the start of a channel line, or null when it is not addressed to
     * {@code nick}.
     */
    static String addressedText(String text, String nick) {
        if (text.length() <= nick.length() || !text.regionMatches(true, 0, nick, 0, nick.length())) return null;
        char c = text.charAt(nick.length());
        if (c != ':' && c != ',') return null;
        return text.substring(nick.length() + 1).strip();
    }
}
