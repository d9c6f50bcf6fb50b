package dev.clawgate.channel.telegram;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a model's markdown as Telegram HTML ({@code parse_mode=HTML}): {@code <>&} escaped; bold, italic, strike,
 * inline code, fenced code as {@code <pre><code class="language-x">}, links and headings converted. Anything else stays
 * literal text. Telegram may still reject odd nesting; the adapter then resends the text plain.
 */
final class TelegramHtml {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+#.-]*)\\s*$");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]+)\\]\\((https?://[^)\\s]+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*|__(?=\\S)(.+?)(?<=\\S)__");
    private static final Pattern ITALIC = Pattern.compile(
            "(?<![\\w*])\\*(?=\\S)([^*\\n]+?)(?<=\\S)\\*(?![\\w*])|(?<![\\w_])_(?=\\S)([^_\\n]+?)(?<=\\S)_(?![\\w_])");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*$");

    private TelegramHtml() {}

    static String render(String markdown) {
        StringBuilder out = new StringBuilder();
        String[] lines = markdown.split("\n", -1);
        StringBuilder code = null;
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher f = FENCE.matcher(line);
            if (code == null && f.matches()) {
                fence = f.group(1);
                String lang = f.group(2);
                code = new StringBuilder();
                out.append(lang.isEmpty() ? "<pre><code>" : "<pre><code class=\"language-" + escape(lang) + "\">");
                continue;
            }
            if (code != null) {
                if (line.strip().equals(fence)
                        || line.strip().startsWith(fence)
                                && line.strip()
                                        .replace(fence.substring(0, 1), "")
                                        .isEmpty()) {
                    out.append(escape(stripLastNewline(code))).append("</code></pre>");
                    code = null;
                    if (i < lines.length - 1) out.append('\n');
                } else {
                    code.append(line).append('\n');
                }
                continue;
            }
            out.append(inline(line));
            if (i < lines.length - 1) out.append('\n');
        }
        if (code != null) out.append(escape(stripLastNewline(code))).append("</code></pre>");
        return out.toString();
    }

    /** One line outside code blocks: inline code spans kept verbatim, the rest converted. */
    private static String inline(String line) {
        Matcher h = HEADING.matcher(line);
        if (h.matches()) return "<b>" + inline(h.group(1)) + "</b>";
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < line.length()) {
            int open = line.indexOf('`', i);
            int close = open < 0 ? -1 : line.indexOf('`', open + 1);
            if (open < 0 || close < 0) {
                out.append(emphasis(line.substring(i)));
                break;
            }
            out.append(emphasis(line.substring(i, open)));
            out.append("<code>").append(escape(line.substring(open + 1, close))).append("</code>");
            i = close + 1;
        }
        return out.toString();
    }

    private static String emphasis(String text) {
        StringBuilder out = new StringBuilder();
        Matcher m = LINK.matcher(text);
        int last = 0;
        while (m.find()) {
            out.append(styles(escape(text.substring(last, m.start()))));
            out.append("<a href=\"")
                    .append(escape(m.group(2)).replace("\"", "&quot;"))
                    .append("\">")
                    .append(styles(escape(m.group(1))))
                    .append("</a>");
            last = m.end();
        }
        out.append(styles(escape(text.substring(last))));
        return out.toString();
    }

    private static String styles(String escaped) {
        String s = BOLD.matcher(escaped)
                .replaceAll(
                        r -> "<b>" + Matcher.quoteReplacement(r.group(1) != null ? r.group(1) : r.group(2)) + "</b>");
        s = STRIKE.matcher(s).replaceAll(r -> "<s>" + Matcher.quoteReplacement(r.group(1)) + "</s>");
        return ITALIC.matcher(s)
                .replaceAll(
                        r -> "<i>" + Matcher.quoteReplacement(r.group(1) != null ? r.group(1) : r.group(2)) + "</i>");
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String stripLastNewline(StringBuilder b) {
        return b.length() > 0 && b.charAt(b.length() - 1) == '\n' ? b.substring(0, b.length() - 1) : b.toString();
    }
}
