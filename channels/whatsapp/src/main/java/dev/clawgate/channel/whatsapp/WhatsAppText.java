package dev.clawgate.channel.whatsapp;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model's Markdown as WhatsApp's formatting ("Formatting text messages"): {@code **bold**} and {@code __bold__} as
 * {@code *bold*}, {@code *italic*} as {@code _italic_}, {@code ~~strike~~} as {@code ~strike~}, {@code [label](url)} as
 * {@code label (url)}, headings as bold lines; code spans, fenced blocks ({@code ```}), lists and {@code >} quotes are
 * WhatsApp's own and kept. An unclosed fence is closed. The text never grows, so a payload cut to the limit stays
 * within it.
 */
final class WhatsAppText {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+#.-]*)\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]+`");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]+)\\]\\((https?://[^)\\s]+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*");
    private static final Pattern UNDERSCORE_BOLD = Pattern.compile("(?<!\\w)__(?=\\S)(.+?)(?<=\\S)__(?!\\w)");
    private static final Pattern ITALIC = Pattern.compile("(?<![\\w*])\\*(?=[^\\s*])([^*\\n]+?)(?<=\\S)\\*(?![\\w*])");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*$");
    /** A placeholder for a rendered piece later rules must not touch (private use, never in a model's text here). */
    private static final char MARK = '\uE000';

    private WhatsAppText() {}

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
                    out.append(line);
                }
                continue;
            }
            Matcher h = HEADING.matcher(line);
            out.append(h.matches() ? "*" + spans(h.group(1)).replace("*", "") + "*" : spans(line));
        }
        if (fence != null) out.append("\n```");
        return out.toString();
    }

    /** Inline rules outside code spans; code spans are kept as they are. */
    private static String spans(String text) {
        StringBuilder out = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(text);
        int at = 0;
        while (code.find()) {
            out.append(styles(text.substring(at, code.start()))).append(code.group());
            at = code.end();
        }
        return out.append(styles(text.substring(at))).toString();
    }

    private static String styles(String text) {
        List<String> held = new ArrayList<>();
        Matcher l = LINK.matcher(text);
        StringBuilder s = new StringBuilder();
        while (l.find()) {
            String label = l.group(1), url = l.group(2);
            held.add(label.equals(url) ? url : label + " (" + url + ")");
            l.appendReplacement(s, Matcher.quoteReplacement(String.valueOf(MARK) + (held.size() - 1) + MARK));
        }
        l.appendTail(s);
        String t = s.toString();
        t = BOLD.matcher(t).replaceAll(m -> Matcher.quoteReplacement(hold(held, "*" + m.group(1) + "*")));
        t = UNDERSCORE_BOLD.matcher(t).replaceAll(m -> Matcher.quoteReplacement(hold(held, "*" + m.group(1) + "*")));
        t = ITALIC.matcher(t).replaceAll(m -> Matcher.quoteReplacement("_" + m.group(1) + "_"));
        t = STRIKE.matcher(t).replaceAll(m -> Matcher.quoteReplacement("~" + m.group(1) + "~"));
        for (int i = held.size() - 1; i >= 0; i--) t = t.replace(String.valueOf(MARK) + i + MARK, held.get(i));
        return t;
    }

    private static String hold(List<String> held, String rendered) {
        held.add(rendered);
        return String.valueOf(MARK) + (held.size() - 1) + MARK;
    }
}
