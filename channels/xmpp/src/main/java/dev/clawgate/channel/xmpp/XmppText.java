package dev.clawgate.channel.xmpp;

import java.util.Locale;

/**
 * Text in and out of XMPP bodies (SPEC CH-8). XMPP carries plain text (XHTML-IM, XEP-0071, is deprecated); many clients
 * show XEP-0393 message styling ({@code *bold*}, {@code _italic_}, {@code `code`}, {@code ```} blocks), which Markdown
 * mostly already is, so replies go as written, with only the characters XML 1.0 cannot carry taken out.
 */
final class XmppText {
    private XmppText() {}

    /**
     * The reply text with every character XML 1.0 forbids (C0 controls but tab, CR, LF; U+FFFE, U+FFFF; lone
     * surrogates) removed.
     */
    static String outbound(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                b.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)
                    || c == 0xFFFE
                    || c == 0xFFFF
                    || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
                continue;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** An inbound body as the gateway takes it: line ends normalised. */
    static String inbound(String body) {
        return body.replace("\r\n", "\n").replace('\r', '\n');
    }

    /**
     * The text of a room message addressed to {@code nick} ({@code nick: text} or {@code nick, text},
     * case-insensitive), without the address; null when it is not addressed to the nick.
     */
    static String addressedTo(String nick, String text) {
        String t = text.stripLeading();
        if (t.length() <= nick.length()) return null;
        if (!t.substring(0, nick.length()).toLowerCase(Locale.ROOT).equals(nick.toLowerCase(Locale.ROOT))) return null;
        char after = t.charAt(nick.length());
        if (after != ':' && after != ',') return null;
        return t.substring(nick.length() + 1).strip();
    }
}
