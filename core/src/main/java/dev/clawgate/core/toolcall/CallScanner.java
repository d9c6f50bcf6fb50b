package dev.clawgate.core.toolcall;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the tool-call blocks in a reply: tags ({@code <tool_call>}, {@code <toolcall>},
 * {@code <tool-call>}, {@code <invoke>}, namespaced forms such as {@code <minimax:tool_call>},
 * and {@code <tools>} when it holds a well-formed call), tool fences ({@code ```tool_call},
 * {@code ```invoke}, {@code ```tool NAME}) and perl-style {@code TOOL_CALL} blocks.
 */
final class CallScanner {
    /** One block: the span it covers in the text and the calls read from it. */
    record Block(int start, int end, List<RawCall> calls) {
    }

    static final Pattern TAG_OPEN = Pattern.compile(
            "<((?:[A-Za-z][\\w-]*:)?(tool_call|toolcall|tool-call|invoke|tools))(\\s[^<>]*)?>", Pattern.CASE_INSENSITIVE);
    private static final Pattern FENCE_OPEN = Pattern.compile(
            "(?m)^[ \\t]*```[ \\t]*(tool_call|toolcall|tool-call|invoke|tool)(?:[ \\t]+([^\\n`]*?))?[ \\t]*\\r?\\n");
    private static final Pattern FENCE_CLOSE = Pattern.compile("(?m)^[ \\t]*```[ \\t]*\\r?$");
    private static final Pattern PERL_OPEN = Pattern.compile("(?m)^[ \\t]*TOOL_CALL[ \\t]*\\r?$");
    private static final Pattern PERL_CLOSE = Pattern.compile("(?m)^[ \\t]*/TOOL_CALL[ \\t]*\\r?$");
    private static final Pattern STRAY_CLOSE = Pattern.compile("\\s*</[A-Za-z][\\w:-]*>");
    private static final Pattern FENCE_LINE = Pattern.compile("[ \\t]*```[^\\n]*\\n");
    private static final Pattern CLOSING_FENCE = Pattern.compile("\\s*```");

    private CallScanner() {
    }

    static List<Block> scan(String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher tag = TAG_OPEN.matcher(text);
        Matcher fence = FENCE_OPEN.matcher(text);
        Matcher perl = PERL_OPEN.matcher(text);
        int pos = 0;
        while (pos < text.length()) {
            int t = tag.find(pos) ? tag.start() : Integer.MAX_VALUE;
            int f = fence.find(pos) ? fence.start() : Integer.MAX_VALUE;
            int p = perl.find(pos) ? perl.start() : Integer.MAX_VALUE;
            int first = Math.min(t, Math.min(f, p));
            if (first == Integer.MAX_VALUE) break;
            Block b = first == t ? tagBlock(text, tag) : first == f ? fenceBlock(text, fence) : perlBlock(text, perl);
            if (b == null) {
                pos = first + 1;
            } else {
                blocks.add(b);
                pos = b.end();
            }
        }
        return blocks;
    }

    /** A tag block, or null when the tag is inert (an unclosed tag not followed by JSON, a {@code <tools>} without a call). */
    private static Block tagBlock(String text, Matcher open) {
        String name = open.group(1).toLowerCase(Locale.ROOT);
        boolean tools = open.group(2).equalsIgnoreCase("tools");
        String attrs = open.group(3) == null ? "" : open.group(3);
        int bodyStart = open.end();
        String close = "</" + name + ">";
        int closeAt = ThinkTags.indexOfIgnoreCase(text, close, bodyStart);
        int nextOpen = nextOpenOfSameName(text, name, bodyStart);
        boolean closed = closeAt >= 0 && (nextOpen < 0 || closeAt < nextOpen);
        List<RawCall> calls;
        int end;
        if (closed) {
            String body = text.substring(bodyStart, closeAt);
            // <tools> is also a plain word in prose: only a JSON invocation inside it is a call
            if (tools && !body.strip().startsWith("{") && !body.strip().startsWith("[")) return null;
            calls = CallBodyReader.readInvoke(attrs, body);
            end = closeAt + close.length();
        } else {
            int limit = nextOpen >= 0 ? nextOpen : text.length();
            Unclosed u = unclosed(text, bodyStart, limit);
            if (u == null) return null;
            calls = u.calls();
            end = u.end();
        }
        if (tools && calls.stream().anyMatch(RawCall::malformed)) return null;
        return new Block(open.start(), end, calls);
    }

    private record Unclosed(List<RawCall> calls, int end) {
    }

    /** An unclosed tag is a call only when JSON follows at once; the block ends after it (and a stray close tag). */
    private static Unclosed unclosed(String text, int from, int limit) {
        int i = skipSpace(text, from, limit);
        Matcher fence = FENCE_LINE.matcher(text).region(i, limit);
        if (fence.lookingAt()) i = skipSpace(text, fence.end(), limit);
        if (i >= limit || (text.charAt(i) != '{' && text.charAt(i) != '[')) return null;
        int jsonEnd = JsonSpan.end(text, i, limit);
        if (jsonEnd < 0) {
            String cut = text.substring(i, limit);
            return new Unclosed(List.of(RawCall.malformed(CallBodyReader.nameIn(cut), "the tool call JSON is cut off: "
                    + CallBodyReader.excerpt(cut))), limit);
        }
        List<RawCall> calls = CallBodyReader.fromJsonText(text.substring(i, jsonEnd));
        int end = jsonEnd;
        Matcher closingFence = CLOSING_FENCE.matcher(text).region(end, limit);
        if (closingFence.lookingAt()) end = closingFence.end();
        Matcher stray = STRAY_CLOSE.matcher(text).region(end, limit);
        if (stray.lookingAt()) end = stray.end();
        return new Unclosed(calls, end);
    }

    private static Block fenceBlock(String text, Matcher open) {
        String kind = open.group(1);
        String label = open.group(2) == null ? "" : open.group(2).strip();
        Matcher close = FENCE_CLOSE.matcher(text);
        boolean closed = close.find(open.end());
        int bodyEnd = closed ? close.start() : text.length();
        int end = closed ? close.end() : text.length();
        String body = text.substring(open.end(), bodyEnd);
        List<RawCall> calls = kind.equals("tool") && !label.isEmpty()
                ? List.of(CallBodyReader.readNamed(label.split("\\s+")[0], body))
                : CallBodyReader.read(body);
        return new Block(open.start(), end, calls);
    }

    private static Block perlBlock(String text, Matcher open) {
        Matcher close = PERL_CLOSE.matcher(text);
        boolean closed = close.find(open.end());
        int bodyEnd = closed ? close.start() : text.length();
        int end = closed ? close.end() : text.length();
        return new Block(open.start(), end, List.of(CallBodyReader.readPerl(text.substring(open.end(), bodyEnd))));
    }

    private static int nextOpenOfSameName(String text, String name, int from) {
        Matcher m = TAG_OPEN.matcher(text);
        int pos = from;
        while (m.find(pos)) {
            if (m.group(1).equalsIgnoreCase(name)) return m.start();
            pos = m.end();
        }
        return -1;
    }

    private static int skipSpace(String text, int from, int limit) {
        int i = from;
        while (i < limit && Character.isWhitespace(text.charAt(i))) i++;
        return i;
    }
}
