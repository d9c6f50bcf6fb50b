package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.internal.toolcall.Segment.Form;
import java.util.List;
import java.util.Locale;

/**
 * Special-token dialects: {@code <|name|>} and {@code <｜name｜>} tokens (Kimi's {@code <|tool_calls_section_begin|>},
 * DeepSeek's {@code <｜tool▁calls▁begin｜>}, Llama's {@code <|python_tag|>}, chat-template tokens such as
 * {@code <|im_end|>}) and Mistral's {@code [TOOL_CALLS]} prefix. A {@code ..._begin} token opens a section its
 * {@code ..._end} token closes; a section about tool calls is a call block, any other token is protocol.
 */
final class Tokens {
    private static final int MAX_TOKEN = 64;
    private final OutputScanner s;
    private final StringBuilder b;

    Tokens(OutputScanner scanner) {
        this.s = scanner;
        this.b = scanner.buf;
    }

    /** A token at {@code p}: the raw name between the bars and the index past it; null undecided; NO_TOKEN. */
    record Token(String raw, String name, int end) {}

    static final Token NO_TOKEN = new Token("", "", -1);

    static Token read(CharSequence b, int p, boolean eof) {
        int len = b.length();
        if (p + 1 >= len) return eof ? NO_TOKEN : null;
        char bar = b.charAt(p + 1);
        if (bar != '|' && bar != '\uFF5C') return NO_TOKEN;
        int i = p + 2;
        while (i < len && i - p < MAX_TOKEN) {
            char c = b.charAt(i);
            if (c == bar) {
                if (i + 1 >= len) return eof ? NO_TOKEN : null;
                if (b.charAt(i + 1) != '>' || i == p + 2) return NO_TOKEN;
                String raw = b.subSequence(p + 2, i).toString().toLowerCase(Locale.ROOT);
                return new Token(raw, raw.replace('\u2581', '_'), i + 2);
            }
            if (Character.isWhitespace(c) || c == '<' || c == '>') return NO_TOKEN;
            i++;
        }
        return i >= len && !eof ? null : NO_TOKEN;
    }

    Segment at(int p) {
        Token t = read(b, p, s.eof);
        if (t == null) return null;
        if (t == NO_TOKEN) return Rules.NO;
        boolean about = t.name().contains("tool") || t.name().contains("function");
        if (t.name().equals("python_tag")) return pythonTag(p, t);
        if (!t.raw().endsWith("begin")) return Segment.protocol(Form.TOKEN, s.slice(p, t.end()));
        char bar = b.charAt(p + 1);
        String close = "<" + bar + t.raw().substring(0, t.raw().length() - 5) + "end" + bar + ">";
        int c = s.finder.find(close, t.end());
        if (c < 0) {
            if (!s.eof) return null;
            return about
                    ? Segment.protocol(
                            Form.TOKEN,
                            s.slice(p, b.length()),
                            RawCall.malformed("unknown", "the tool-call section was not closed, so it was not run"))
                    : Segment.protocol(Form.TOKEN, s.slice(p, b.length()));
        }
        String source = s.slice(p, c + close.length());
        if (!about) return Segment.protocol(Form.TOKEN, source);
        return Segment.call(Form.TOKEN, source, readSection(s.slice(t.end(), c)), "");
    }

    /**
     * Llama's {@code <|python_tag|>} followed by a JSON call; anything else after it is protocol up to the next token.
     */
    private Segment pythonTag(int p, Token t) {
        int q = t.end();
        while (q < b.length() && Character.isWhitespace(b.charAt(q))) q++;
        if (q >= b.length()) return s.eof ? Segment.protocol(Form.TOKEN, s.slice(p, b.length())) : null;
        if (b.charAt(q) != '{' && b.charAt(q) != '[') return Segment.protocol(Form.TOKEN, s.slice(p, t.end()));
        return jsonCalls(p, q, "the <|python_tag|> call JSON is cut off, so it was not run");
    }

    /** Mistral: {@code [TOOL_CALLS]} then a JSON array of calls, or {@code name[ARGS]{...}}. */
    Segment mistral(int p, int after) {
        int q = after;
        while (q < b.length() && Character.isWhitespace(b.charAt(q))) q++;
        if (q >= b.length()) return s.eof ? Segment.protocol(Form.BRACKET, s.slice(p, b.length())) : null;
        char c = b.charAt(q);
        if (c == '{' || c == '[') return jsonCalls(p, q, "the [TOOL_CALLS] JSON is cut off, so it was not run");
        int i = q;
        while (i < b.length()
                && (Character.isLetterOrDigit(b.charAt(i))
                        || b.charAt(i) == '_'
                        || b.charAt(i) == '-'
                        || b.charAt(i) == '.')) i++;
        s.count(i - q);
        if (i - q > 0 && i - q <= 64) {
            if (b.length() - i < 6 && !s.eof) return null;
            if (s.finder.matchesAt("[args]", i)) {
                int j = i + 6;
                int end = JsonSpan.end(b, j, b.length());
                s.count(b.length() - j);
                if (end < 0) {
                    if (!s.eof) return null;
                    return Segment.protocol(
                            Form.BRACKET,
                            s.slice(p, b.length()),
                            RawCall.malformed(s.slice(q, i), "the [TOOL_CALLS] arguments are cut off"));
                }
                return Segment.call(
                        Form.BRACKET,
                        s.slice(p, end),
                        List.of(CallBodyReader.readNamed(s.slice(q, i), s.slice(j, end))),
                        "");
            }
        }
        return Segment.protocol(Form.BRACKET, s.slice(p, after));
    }

    private Segment jsonCalls(int p, int q, String cutOff) {
        int end = JsonSpan.end(b, q, b.length());
        s.count((end < 0 ? b.length() : end) - q);
        if (end < 0) {
            if (!s.eof) return null;
            return Segment.protocol(
                    Form.TOKEN,
                    s.slice(p, b.length()),
                    RawCall.malformed(CallBodyReader.nameIn(s.slice(q, b.length())), cutOff));
        }
        return Segment.call(Form.TOKEN, s.slice(p, end), CallBodyReader.fromJsonText(s.slice(q, end)), "");
    }

    /**
     * The calls in a section body: each {@code call_begin} token, a header (Kimi: {@code functions.NAME:0}; DeepSeek:
     * {@code function} with the name on the next line, or the name), a separator token, the arguments (JSON, possibly
     * fenced) and {@code call_end}.
     */
    static List<RawCall> readSection(String body) {
        List<RawCall> calls = new java.util.ArrayList<>();
        int i = 0;
        while (i < body.length()) {
            int lt = body.indexOf('<', i);
            if (lt < 0) break;
            Token t = read(body, lt, true);
            if (t == NO_TOKEN || !t.name().contains("call_begin")) {
                i = lt + 1;
                continue;
            }
            int sep = nextToken(body, t.end());
            int endTok = sep < 0 ? -1 : nextToken(body, read(body, sep, true).end());
            if (sep < 0 || endTok < 0) {
                calls.add(RawCall.malformed("unknown", "a tool call in the section is not closed"));
                break;
            }
            String header = body.substring(t.end(), sep).strip();
            String args = body.substring(read(body, sep, true).end(), endTok).strip();
            if (header.equalsIgnoreCase("function") || header.equalsIgnoreCase("functions")) {
                int nl = args.indexOf('\n');
                header = nl < 0 ? args : args.substring(0, nl).strip();
                args = nl < 0 ? "" : args.substring(nl + 1).strip();
            }
            String name = header;
            if (name.startsWith("functions.")) name = name.substring("functions.".length());
            int colon = name.lastIndexOf(':');
            if (colon > 0) name = name.substring(0, colon);
            calls.add(CallBodyReader.readNamed(name.strip(), CallBodyReader.unwrapFence(args)));
            i = read(body, endTok, true).end();
        }
        if (calls.isEmpty()) {
            String t = body.strip();
            if (t.startsWith("{") || t.startsWith("[")) return CallBodyReader.fromJsonText(t);
            calls.add(RawCall.malformed("unknown", "the tool-call section holds no call"));
        }
        return calls;
    }

    private static int nextToken(String body, int from) {
        int i = from;
        while (true) {
            int lt = body.indexOf('<', i);
            if (lt < 0) return -1;
            if (read(body, lt, true) != NO_TOKEN) return lt;
            i = lt + 1;
        }
    }
}
