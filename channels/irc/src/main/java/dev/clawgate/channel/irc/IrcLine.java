package dev.clawgate.channel.irc;

import java.util.ArrayList;
import java.util.List;

/**
 * One IRC protocol line (RFC 2812 section 2.3.1): an optional {@code :prefix}, a command and its parameters, the last
 * of which may be a {@code :trailing} one holding spaces. IRCv3 message tags ({@code @a=b;c}) are skipped: this client
 * asks for none.
 *
 * @param prefix the origin ({@code nick!user@host} or a server name), or "" when the line had none
 * @param command upper-cased command or three-digit numeric
 * @param params the parameters, the trailing one last and without its colon
 */
record IrcLine(String prefix, String command, List<String> params) {

    static IrcLine parse(String raw) {
        String s = raw;
        if (s.startsWith("@")) {
            int sp = s.indexOf(' ');
            s = sp < 0 ? "" : s.substring(sp + 1);
        }
        String prefix = "";
        if (s.startsWith(":")) {
            int sp = s.indexOf(' ');
            prefix = sp < 0 ? s.substring(1) : s.substring(1, sp);
            s = sp < 0 ? "" : s.substring(sp + 1);
        }
        List<String> params = new ArrayList<>();
        String command = "";
        while (!s.isEmpty()) {
            while (s.startsWith(" ")) s = s.substring(1);
            if (s.isEmpty()) break;
            if (!command.isEmpty() && s.startsWith(":")) {
                params.add(s.substring(1));
                break;
            }
            int sp = s.indexOf(' ');
            String word = sp < 0 ? s : s.substring(0, sp);
            s = sp < 0 ? "" : s.substring(sp + 1);
            if (command.isEmpty()) command = word.toUpperCase(java.util.Locale.ROOT);
            else params.add(word);
        }
        return new IrcLine(prefix, command, List.copyOf(params));
    }

    /** The parameter at {@code i}, or "" when there are fewer. */
    String param(int i) {
        return i < params.size() ? params.get(i) : "";
    }

    /** The last parameter (the trailing text), or "". */
    String trailing() {
        return params.isEmpty() ? "" : params.getLast();
    }

    /** The nick of a {@code nick!user@host} prefix (the whole prefix when it names a server). */
    String nick() {
        int bang = prefix.indexOf('!');
        return bang < 0 ? prefix : prefix.substring(0, bang);
    }
}
