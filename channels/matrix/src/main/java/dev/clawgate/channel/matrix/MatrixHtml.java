package dev.clawgate.channel.matrix;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a model's Markdown as the HTML subset Matrix clients show ({@code format: org.matrix.custom.html},
 * "m.room.message msgtypes"): {@code <>&"} escaped; bold, italic, strike, inline code, fenced code as {@code <pre><code
 * class="language-x">}, links and headings converted; line breaks as {@code <br>} outside code blocks. Anything else
 * stays literal text. The plain {@code body} beside it is the Markdown as written.
 */
final class MatrixHtml {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+#.-]*)\\s*$");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]+)\\]\\((https?://[^)\\s]+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*|__(?=\\S)(.+?)(?<=\\S)__");
    private static final Pattern ITALIC = Pattern.compile(
            "(?<![\\w*])\\*(?=\\S)([^*\\n]+?)(?<=\\S)\\*(?![\\w*])|(?<![\\w_])_(?=\\S)([^_\\n]+?)(?<=\\S)_(?![\\w_])");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*$");

    private MatrixHtml() {}

    static String render(String markdown) {
        StringBuilder out = new StringBuilder();
        String[] lines = markdown.split("\n", -1);
        StringBuilder code = null;
        String fence = null;
        boolean lineBreak = false;
        for (String line : lines) {
            Matcher f = FENCE.matcher(line);
            if (code == null && f.matches()) {
                fence = f.group(1);
                String lang = f.group(2);
                code = new StringBuilder();
                out.append(lang.isEmpty() ? "<pre><code>" : "<pre><code class=\"language-" + escape(lang) + "\">");
                lineBreak = false;
                continue;
            }
            if (code != null) {
                String s = line.strip();
                char mark = fence.charAt(0);
                if (s.startsWith(fence) && s.chars().allMatch(c -> c == mark)) {
                    out.append(escape(withoutLastNewline(code))).append("</code></pre>");
                    code = null;
                } else {
                    code.append(line).append('\n');
                }
                continue;
            }
            if (lineBreak) out.append("<br>");
            out.append(inline(line));
            lineBreak = !HEADING.matcher(line).matches();
        }
        if (code != null) out.append(escape(withoutLastNewline(code))).append("</code></pre>");
        return out.toString();
    }

    /** Whether rendering changes anything a reader would see: plain text needs no {@code formatted_body}. */
    static boolean plain(String markdown) {
        return render(markdown).equals(escape(markdown).replace("\n", "<br>"));
    }

    private static String inline(String line) {
        Matcher h = HEADING.matcher(line);
        if (h.matches()) {
            int level = h.group(1).length();
            return "<h" + level + ">" + inline(h.group(2)) + "</h" + level + ">";
        }
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
                    .append(escape(m.group(2)))
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
                .replaceAll(r -> "<strong>" + Matcher.quoteReplacement(r.group(1) != null ? r.group(1) : r.group(2))
                        + "</strong>");
        s = STRIKE.matcher(s).replaceAll(r -> "<del>" + Matcher.quoteReplacement(r.group(1)) + "</del>");
        return ITALIC.matcher(s)
                .replaceAll(
                        r -> "<em>" + Matcher.quoteReplacement(r.group(1) != null ? r.group(1) : r.group(2)) + "</em>");
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String withoutLastNewline(StringBuilder b) {
        return b.length() > 0 && b.charAt(b.length() - 1) == '\n' ? b.substring(0, b.length() - 1) : b.toString();
    }
}
