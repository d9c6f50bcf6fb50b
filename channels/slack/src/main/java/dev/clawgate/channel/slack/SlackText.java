package dev.clawgate.channel.slack;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slack's text formats. Inbound: a message's text is mrkdwn with {@code &amp; &lt; &gt;} escaped and {@code <...>} for
 * mentions and links ("Formatting text for app surfaces"); it is read back into plain text. Outbound: a model's
 * Markdown rendered as mrkdwn: {@code **bold**} as {@code *bold*}, {@code *italic*} as {@code _italic_},
 * {@code ~~strike~~} as {@code ~strike~}, {@code [label](url)} as {@code <url|label>}, headings as bold lines, list
 * bullets as {@code •}; code spans and fenced blocks kept whole (fence lines kept, language tag dropped), {@code & < >}
 * escaped everywhere as Slack requires. Hand written: no Java library renders mrkdwn, and the rules are these few.
 */
final class SlackText {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+#.-]*)\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]+`");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]+)\\]\\((https?://[^)\\s]+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*|__(?=\\S)(.+?)(?<=\\S)__");
    private static final Pattern ITALIC = Pattern.compile("(?<![\\w*])\\*(?=[^\\s*])([^*\\n]+?)(?<=\\S)\\*(?![\\w*])");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*$");
    private static final Pattern BULLET = Pattern.compile("^(\\s*)[-*+]\\s+(.*)$");
    private static final Pattern ANGLE = Pattern.compile("<([^<>|]+)(?:\\|([^<>]*))?>");
    /**
     * A placeholder for a rendered piece that later rules must not touch; U+E000.. are private use, never in a model's
     * text here.
     */
    private static final char MARK = '\uE000';

    private SlackText() {}

    /** Markdown to mrkdwn, line by line; a fence opens and closes a block copied through escaped. */
    static String render(String markdown) {
        StringBuilder out = new StringBuilder();
        String[] lines = markdown.split("\n", -1);
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (i > 0) out.append('\n');
            Matcher f = FENCE.matcher(line);
            if (fence == null && f.matches()) {
                fence = f.group(1);
                out.append("```");
                continue;
            }
            if (fence != null) {
                String s = line.strip();
                char mark = fence.charAt(0);
                if (s.startsWith(fence) && s.chars().allMatch(c -> c == mark)) {
                    out.append("```");
                    fence = null;
                } else {
                    out.append(escape(line));
                }
                continue;
            }
            out.append(inline(line));
        }
        // an unclosed fence (the model's, or a chunk cut inside one) is closed, so no later text renders as code
        if (fence != null) out.append("\n```");
        return out.toString();
    }

    private static String inline(String line) {
        Matcher h = HEADING.matcher(line);
        if (h.matches()) return "*" + spans(h.group(1)) + "*";
        Matcher b = BULLET.matcher(line);
        if (b.matches() && !b.group(2).isEmpty()) return b.group(1) + "• " + spans(b.group(2));
        return spans(line);
    }

    /** Inline rules outside code spans; code spans are escaped and kept. */
    private static String spans(String text) {
        StringBuilder out = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(text);
        int at = 0;
        while (code.find()) {
            out.append(styles(text.substring(at, code.start()))).append(escape(code.group()));
            at = code.end();
        }
        return out.append(styles(text.substring(at))).toString();
    }

    private static String styles(String text) {
        java.util.List<String> held = new java.util.ArrayList<>();
        // links first: their URL must not be styled or escaped as text; the label is
        Matcher l = LINK.matcher(text);
        StringBuilder s = new StringBuilder();
        while (l.find()) {
            held.add("<" + l.group(2).replace("|", "%7C").replace(">", "%3E") + "|" + escape(l.group(1)) + ">");
            l.appendReplacement(s, Matcher.quoteReplacement(String.valueOf(MARK) + (held.size() - 1) + MARK));
        }
        l.appendTail(s);
        String t = escape(s.toString());
        t = BOLD.matcher(t)
                .replaceAll(m -> Matcher.quoteReplacement(
                        hold(held, "*" + (m.group(1) != null ? m.group(1) : m.group(2)) + "*")));
        t = ITALIC.matcher(t).replaceAll(m -> Matcher.quoteReplacement("_" + m.group(1) + "_"));
        t = STRIKE.matcher(t).replaceAll(m -> Matcher.quoteReplacement("~" + m.group(1) + "~"));
        for (int i = held.size() - 1; i >= 0; i--) t = t.replace(String.valueOf(MARK) + i + MARK, held.get(i));
        return t;
    }

    private static String hold(java.util.List<String> held, String rendered) {
        held.add(rendered);
        return String.valueOf(MARK) + (held.size() - 1) + MARK;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * A received message's text as plain text: {@code <@U123>} as {@code @name} for the bot (so the agent reads who was
     * addressed) and {@code @U123} for others, {@code <#C1|general>} as {@code #general}, {@code <url|label>} as
     * {@code label (url)}, {@code <!here>} as {@code @here}, then the entities unescaped.
     */
    static String plain(String mrkdwn, String botUserId, String botName) {
        if (mrkdwn == null) return "";
        Matcher m = ANGLE.matcher(mrkdwn);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String target = m.group(1), label = m.group(2);
            String r;
            if (target.startsWith("@")) {
                String id = target.substring(1);
                r = "@"
                        + (id.equals(botUserId) && botName != null
                                ? botName
                                : label != null && !label.isEmpty() ? label : id);
            } else if (target.startsWith("#")) {
                r = "#" + (label != null && !label.isEmpty() ? label : target.substring(1));
            } else if (target.startsWith("!")) {
                String word = target.substring(1);
                int caret = word.indexOf('^');
                r = label != null && !label.isEmpty() ? label : "@" + (caret < 0 ? word : word.substring(0, caret));
            } else {
                r = label == null || label.isEmpty() || label.equals(target) ? target : label + " (" + target + ")";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(r));
        }
        m.appendTail(out);
        return out.toString().replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
