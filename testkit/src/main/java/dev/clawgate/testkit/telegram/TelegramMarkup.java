package dev.clawgate.testkit.telegram;

import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;

/**
 * What Telegram does with {@code parse_mode}: parses the markup and keeps the visible text, or refuses the message with
 * {@code 400 Bad Request: can't parse entities: ...} as the real Bot API does for malformed HTML or unescaped
 * MarkdownV2.
 */
final class TelegramMarkup {
    private static final String PREFIX = "Bad Request: can't parse entities: ";
    private static final Set<String> HTML_TAGS = Set.of(
            "b",
            "strong",
            "i",
            "em",
            "u",
            "ins",
            "s",
            "strike",
            "del",
            "span",
            "tg-spoiler",
            "a",
            "code",
            "pre",
            "blockquote",
            "tg-emoji");
    private static final String MD_RESERVED = "_*[]()~`>#+-=|{}.!";

    private TelegramMarkup() {}

    /** The visible text of {@code text} under {@code parseMode} (null: plain text). */
    static String visibleText(String text, String parseMode) throws BadRequest {
        if (parseMode == null || parseMode.isBlank()) return text;
        return switch (parseMode) {
            case "HTML" -> html(text);
            case "MarkdownV2" -> markdownV2(text);
            case "Markdown" -> text.replace("*", "").replace("_", "").replace("`", "");
            default -> throw new BadRequest("Bad Request: unsupported parse_mode");
        };
    }

    private static String html(String s) throws BadRequest {
        StringBuilder out = new StringBuilder();
        Deque<String> open = new ArrayDeque<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '<') {
                int end = s.indexOf('>', i);
                if (end < 0) throw new BadRequest(PREFIX + "Unclosed start tag at byte offset " + offset(s, i));
                String inner = s.substring(i + 1, end).strip();
                boolean closing = inner.startsWith("/");
                String name = (closing ? inner.substring(1) : inner).split("[\\s=]", 2)[0].toLowerCase(Locale.ROOT);
                if (name.isEmpty() || !HTML_TAGS.contains(name)) {
                    throw new BadRequest(PREFIX + (closing ? "Unsupported end tag" : "Unsupported start tag") + " \""
                            + name + "\" at byte offset " + offset(s, i));
                }
                if (closing) {
                    if (open.isEmpty() || !open.peek().equals(name)) {
                        throw new BadRequest(
                                PREFIX + "Unmatched end tag at byte offset " + offset(s, i) + ", expected \"</"
                                        + (open.isEmpty() ? "" : open.peek()) + ">\", found \"</" + name + ">\"");
                    }
                    open.pop();
                } else {
                    if (name.equals("a") && !inner.contains("href=")) {
                        throw new BadRequest(
                                PREFIX + "Can't find attribute href of tag \"a\" at byte offset " + offset(s, i));
                    }
                    open.push(name);
                }
                i = end + 1;
            } else if (c == '&') {
                int semi = s.indexOf(';', i);
                String entity = semi < 0 || semi - i > 10 ? null : s.substring(i + 1, semi);
                String decoded = entity == null ? null : entity(entity);
                if (decoded == null) {
                    out.append('&');
                    i++;
                } else {
                    out.append(decoded);
                    i = semi + 1;
                }
            } else {
                out.append(c);
                i++;
            }
        }
        if (!open.isEmpty())
            throw new BadRequest(PREFIX + "Can't find end tag corresponding to start tag \"" + open.peek() + "\"");
        return out.toString();
    }

    private static String entity(String name) {
        return switch (name) {
            case "lt" -> "<";
            case "gt" -> ">";
            case "amp" -> "&";
            case "quot" -> "\"";
            default -> {
                try {
                    if (name.startsWith("#x")) yield Character.toString(Integer.parseInt(name.substring(2), 16));
                    if (name.startsWith("#")) yield Character.toString(Integer.parseInt(name.substring(1)));
                } catch (IllegalArgumentException notNumeric) {
                    yield null;
                }
                yield null;
            }
        };
    }

    /** MarkdownV2: reserved characters must be escaped outside entities, and entities must close. */
    private static String markdownV2(String s) throws BadRequest {
        StringBuilder out = new StringBuilder();
        Deque<Character> open = new ArrayDeque<>();
        boolean code = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                out.append(s.charAt(++i));
            } else if (c == '`') {
                code = !code;
            } else if (code) {
                out.append(c);
            } else if (c == '*' || c == '_' || c == '~') {
                if (!open.isEmpty() && open.peek() == c) open.pop();
                else open.push(c);
            } else if (MD_RESERVED.indexOf(c) >= 0) {
                throw new BadRequest(
                        PREFIX + "Character '" + c + "' is reserved and must be escaped with the preceding '\\'");
            } else {
                out.append(c);
            }
        }
        if (code || !open.isEmpty())
            throw new BadRequest(PREFIX + "Can't find end of the entity starting at byte offset 0");
        return out.toString();
    }

    private static int offset(String s, int charIndex) {
        return s.substring(0, charIndex).getBytes(StandardCharsets.UTF_8).length;
    }
}
