package dev.clawgate.channel.irc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns a reply into IRC lines (SPEC CH-7, OUT-1): IRC shows plain text, one line per message, so Markdown is flattened
 * (emphasis marks dropped, links as {@code text (url)}, headings as their text), a code fence's lines are sent as they
 * are, and every line is cut to a byte budget (the 512-byte line limit less the relayed prefix and command) at a space
 * where there is one, and never inside a UTF-8 character.
 */
final class IrcText {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~).*$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern IMAGE_OR_LINK =
            Pattern.compile("!?\\[([^\\]]*)\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern STRONG = Pattern.compile("(\\*\\*|__)(?=\\S)(.+?)(?<=\\S)\\1");
    private static final Pattern EMPHASIS =
            Pattern.compile("(?<![\\w*])([*_])(?=\\S)([^*_\\n]+?)(?<=\\S)\\1(?![\\w*])");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern QUOTE = Pattern.compile("^\\s{0,3}>\\s?");
    private static final Pattern RULE = Pattern.compile("^\\s{0,3}([-*_])(\\s*\\1){2,}\\s*$");

    private IrcText() {}

    /** The reply as the plain lines IRC shows: no empty line (IRC refuses an empty message), code kept as it is. */
    static List<String> lines(String markdown) {
        List<String> out = new ArrayList<>();
        boolean inCode = false;
        for (String raw : markdown.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            String line = clean(raw);
            if (FENCE.matcher(line).matches()) {
                inCode = !inCode;
                continue;
            }
            if (inCode) {
                // a blank line inside code keeps its place as one space, so the code's shape survives
                out.add(line.isBlank() ? " " : line);
                continue;
            }
            String flat = flatten(line);
            if (!flat.isBlank()) out.add(flat);
        }
        return out;
    }

    /** Tabs as spaces; control characters IRC gives meaning to (NUL, CR, CTCP's \u0001, colour codes) dropped. */
    private static String clean(String line) {
        StringBuilder b = new StringBuilder(line.length());
        line.codePoints().forEach(cp -> {
            if (cp == '\t') b.append("    ");
            else if (cp >= 0x20 && cp != 0x7f) b.appendCodePoint(cp);
        });
        return b.toString();
    }

    private static String flatten(String line) {
        if (RULE.matcher(line).matches()) return "";
        String s = line;
        var heading = HEADING.matcher(s);
        if (heading.matches()) s = heading.group(1);
        s = QUOTE.matcher(s).replaceFirst("");
        s = IMAGE_OR_LINK.matcher(s).replaceAll(m -> {
            String text = m.group(1);
            String url = m.group(2);
            return java.util.regex.Matcher.quoteReplacement(
                    text.isBlank() || text.equals(url) ? url : text + " (" + url + ")");
        });
        s = INLINE_CODE.matcher(s).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(1)));
        s = STRONG.matcher(s).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(2)));
        s = STRIKE.matcher(s).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(1)));
        s = EMPHASIS.matcher(s).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(m.group(2)));
        return s.stripTrailing();
    }

    /**
     * Cuts {@code line} into pieces of at most {@code budget} UTF-8 bytes: at the last space that fits (the space
     * itself is the cut, so no piece starts or ends with it), else after the last whole code point that fits. Joining
     * the pieces with one space where a space was cut gives the line back.
     */
    static List<String> split(String line, int budget) {
        if (budget < 4)
            throw new IllegalArgumentException("a budget under 4 bytes cannot hold every character: " + budget);
        List<String> pieces = new ArrayList<>();
        String rest = line;
        while (utf8(rest) > budget) {
            int end = 0;
            int bytes = 0;
            int lastSpace = -1;
            while (end < rest.length()) {
                int cp = rest.codePointAt(end);
                int len = utf8(cp);
                if (bytes + len > budget) break;
                if (cp == ' ') lastSpace = end;
                bytes += len;
                end += Character.charCount(cp);
            }
            if (lastSpace > 0) {
                pieces.add(rest.substring(0, lastSpace));
                rest = rest.substring(lastSpace + 1);
            } else {
                pieces.add(rest.substring(0, end));
                rest = rest.substring(end);
            }
        }
        if (!rest.isEmpty()) pieces.add(rest);
        return pieces;
    }

    static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int utf8(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
}
