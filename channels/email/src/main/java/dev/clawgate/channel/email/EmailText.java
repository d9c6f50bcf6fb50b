package dev.clawgate.channel.email;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Mail bodies in and out (SPEC CH-9): HTML flattened to text, the quoted part of a reply taken off, and a reply's
 * simple HTML alternative.
 */
final class EmailText {
    private static final Pattern DROP = Pattern.compile("(?is)<(script|style|head)[^>]*>.*?</\\1\\s*>");
    private static final Pattern BLOCKQUOTE = Pattern.compile("(?is)<blockquote[^>]*>.*?</blockquote\\s*>");
    private static final Pattern BREAK = Pattern.compile("(?i)<br\\s*/?>|</(p|div|li|tr|h[1-6])\\s*>");
    private static final Pattern TAG = Pattern.compile("(?s)<[^>]*>");
    /** "On Mon, 1 Jan 2026, Alice <a@x> wrote:" and the Outlook separator start the quoted part. */
    private static final Pattern ATTRIBUTION =
            Pattern.compile("(?i)^(on\\s.+wrote:|-{2,}\\s*original " + "message\\s*-{2,}|_{5,})\\s*$");

    private EmailText() {}

    /** HTML as plain text: scripts, styles and quoted blocks dropped, blocks as lines, entities decoded. */
    static String flattenHtml(String html) {
        String s = DROP.matcher(html).replaceAll("");
        s = BLOCKQUOTE.matcher(s).replaceAll("");
        s = BREAK.matcher(s).replaceAll("\n");
        s = TAG.matcher(s).replaceAll("");
        s = s.replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
        List<String> lines = new ArrayList<>();
        for (String line : s.split("\r?\n")) lines.add(line.strip());
        return String.join("\n", lines).replaceAll("\n{3,}", "\n\n").strip();
    }

    /**
     * The new text of a reply: from the attribution line or the first quoted ({@code >}) line on, everything is quote.
     */
    static String stripQuoted(String text) {
        List<String> kept = new ArrayList<>();
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith(">")) break;
            if (ATTRIBUTION.matcher(line.strip()).matches()) break;
            // Gmail wraps a long attribution over two lines: "On ... <a@x>" then "wrote:"
            if (line.strip().toLowerCase().startsWith("on ")
                    && i + 1 < lines.length
                    && lines[i + 1].strip().equalsIgnoreCase("wrote:")) break;
            if (line.equals("-- ")) break;
            kept.add(line);
        }
        return String.join("\n", kept).strip();
    }

    /** A reply's HTML alternative: the text escaped, paragraphs on blank lines, line breaks kept. */
    static String html(String text) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html><html><body>");
        for (String para : text.strip().split("\n\\s*\n")) {
            String escaped = para.replace("&", "&amp;")
                    .replace("<", "&lt;")
                    .replace(">", "&gt;")
                    .replace("\"", "&quot;");
            b.append("<p>").append(escaped.replace("\n", "<br>")).append("</p>");
        }
        return b.append("</body></html>").toString();
    }

    /** {@code Re: subject}, without stacking a second {@code Re:}. */
    static String replySubject(String subject) {
        if (subject == null || subject.isBlank()) return "Re: your message";
        String s = subject.strip();
        return s.regionMatches(true, 0, "re:", 0, 3) ? s : "Re: " + s;
    }
}
