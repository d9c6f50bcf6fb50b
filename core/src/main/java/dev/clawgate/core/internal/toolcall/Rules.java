package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.internal.toolcall.Segment.Form;
import dev.clawgate.core.internal.toolcall.Segment.Kind;
import java.util.List;
import java.util.Locale;

/**
 * The block rules of {@link OutputScanner}'s grammar. Each rule looks at the text from a position and answers with a
 * decided segment, {@link #NO} (not this rule; the text is ordinary), or null (undecided: only more text can tell,
 * never returned once the text ended).
 */
final class Rules {
    static final Segment NO = Segment.text("");
    static final String[] CALL_CLOSES = {"</tool_call>", "</toolcall>", "</tool-call>", "</invoke>", "</function>"};

    private final OutputScanner s;
    private final StringBuilder b;
    private final FenceRule fences;

    Rules(OutputScanner scanner) {
        this.s = scanner;
        this.b = scanner.buf;
        this.fences = new FenceRule(scanner, this);
    }

    /** The segment that starts at {@code p}, or null when undecided. */
    Segment at(int p) {
        if (s.openReasoning != null) return reasoningRest(p);
        if (s.lineStart(p)) {
            Segment line = lineRules(p);
            if (line == null) return null;
            if (line != NO) return line;
        }
        char c = b.charAt(p);
        Segment r = NO;
        if (c == '<') r = angle(p);
        else if (c == '[') r = bracket(p);
        if (r == null) return null;
        if (r != NO) return r;
        return textRun(p);
    }

    private Segment textRun(int p) {
        int i = p + 1;
        int len = b.length();
        if (b.charAt(p) != '\n') {
            while (i < len) {
                char c = b.charAt(i);
                if (c == '<' || c == '[') break;
                i++;
                if (c == '\n') break;
            }
        }
        s.count(i - p);
        return Segment.text(s.slice(p, i));
    }

    // ---- rules that need a line start --------------------------------------------------------

    private Segment lineRules(int p) {
        int len = b.length();
        int q = p;
        while (q < len && (b.charAt(q) == ' ' || b.charAt(q) == '\t')) q++;
        s.count(q - p + 1);
        if (q >= len) return s.eof ? NO : null;
        char c = b.charAt(q);
        if (c == '`') return fences.at(p, q);
        if (c == '{' || c == '[') {
            Segment header = wholeLine(p, q, "[tool results]", Kind.RESULT);
            if (header != NO) return header;
            if (c == '[' && (startsIgnoreCase(q, "[tool_call") || startsIgnoreCase(q, "[/tool_call"))) return NO;
            return jsonLine(p, q);
        }
        if (c == 'T' || c == 't') {
            Segment bare = wholeLine(p, q, "tool_call", null);
            if (bare == null) return null;
            if (bare != NO) return bracketBody(p, bare.source().length() + p);
        }
        if (Character.isLetter(c) || c == '_') return shortCall(p, q);
        return NO;
    }

    /**
     * A line that is exactly {@code word} (ignoring case and surrounding blanks): a segment of {@code kind} through its
     * newline, or, with kind null, a marker segment whose source is the line; NO when the line is something else; null
     * while the line is incomplete and could still be it.
     */
    private Segment wholeLine(int p, int q, String word, Kind kind) {
        int le = s.lineEnd(q);
        if (le < 0) {
            String partial =
                    b.substring(q, Math.min(b.length(), q + word.length() + 64)).toLowerCase(Locale.ROOT);
            return word.startsWith(partial) || partial.stripTrailing().equals(word) ? null : NO;
        }
        if (!b.substring(q, le).strip().equalsIgnoreCase(word)) return NO;
        int end = le < b.length() ? le + 1 : le;
        if (kind == null) return Segment.text(s.slice(p, end));
        return new Segment(kind, Form.LINE, s.slice(p, end), "", "", List.of());
    }

    private Segment jsonLine(int p, int q) {
        int le = s.lineEnd(q);
        if (le < 0) return null;
        if (Envelopes.startsResultEnvelope(b, q, le)) {
            int end = JsonSpan.end(b, q, le);
            s.count(le - q);
            int tail = end < 0 || b.substring(end, le).isBlank() ? throughNewline(le) : end;
            return new Segment(Kind.RESULT, Form.JSON, s.slice(p, tail), "", "", List.of());
        }
        int end;
        if (!s.sawContent) {
            end = s.leadJsonEnd(q);
            if (end < 0 && s.eof && Envelopes.startsCallEnvelope(b, q, b.length())) {
                return Segment.protocol(
                        Form.JSON,
                        s.slice(p, b.length()),
                        RawCall.malformed(
                                CallBodyReader.nameIn(s.slice(q, b.length())),
                                "the tool-call JSON is cut off, so it was not run"));
            }
            if (end < 0) return s.eof ? NO : null;
        } else {
            end = JsonSpan.end(b, q, le);
            s.count(le - q);
            if (end < 0) return NO;
        }
        int rest = s.lineEnd(end);
        if (rest < 0) return null;
        if (!b.substring(end, rest).isBlank()) return NO;
        Envelopes.Classified k = Envelopes.classify(s.slice(q, end), s.registered, s.afterCall);
        if (k.kind() == Kind.TEXT) return NO;
        return new Segment(k.kind(), Form.JSON, s.slice(p, throughNewline(rest)), k.shown(), "", k.calls());
    }

    /** {@code name>args</invoke>}: a call whose opening tag lost its {@code <invoke name=}; one line. */
    private Segment shortCall(int p, int q) {
        int len = b.length();
        int i = q;
        while (i < len
                && (Character.isLetterOrDigit(b.charAt(i))
                        || b.charAt(i) == '_'
                        || b.charAt(i) == '.'
                        || b.charAt(i) == '-')) i++;
        s.count(i - q);
        if (i >= len) return s.eof ? NO : null;
        if (b.charAt(i) != '>' || i - q > 64) return NO;
        int argsStart = i + 1;
        int j = argsStart;
        while (j < len && b.charAt(j) != '<' && b.charAt(j) != '\n') j++;
        s.count(j - argsStart);
        if (j >= len) return s.eof ? NO : null;
        if (b.charAt(j) == '\n') return NO;
        Tag close = Tag.read(b, j, s.eof);
        if (close == null) return null;
        if (close == Tag.NONE || !close.closing() || !OutputScanner.CALL_TAGS.contains(close.local())) return NO;
        String name = s.slice(q, i);
        String args = s.slice(argsStart, j);
        return Segment.call(Form.LINE, s.slice(p, close.end()), List.of(CallBodyReader.readShort(name, args)), "");
    }

    // ---- '<' : tags and special tokens ------------------------------------------------------

    private Segment angle(int p) {
        if (p + 1 >= b.length()) return s.eof ? NO : null;
        char n = b.charAt(p + 1);
        if (n == '|' || n == '\uFF5C') return new Tokens(s).at(p);
        Tag t = Tag.read(b, p, s.eof);
        if (t == null) return null;
        if (t == Tag.NONE) return NO;
        String local = t.local();
        boolean plain = !t.namespaced();
        boolean call = OutputScanner.CALL_TAGS.contains(local);
        boolean wrapper = OutputScanner.WRAPPER_TAGS.contains(local);
        boolean tools = plain && local.equals("tools");
        boolean result = plain && OutputScanner.RESULT_TAGS.contains(local);
        boolean thought = plain && s.reasoning.contains(t.name());
        boolean part = OutputScanner.PART_TAGS.contains(local);
        if (!(call || wrapper || tools || result || thought || part)) return NO;
        if (t.closing() || t.selfClosing()) {
            Kind stray = result ? Kind.RESULT : thought ? Kind.REASONING : Kind.PROTOCOL;
            return new Segment(stray, Form.TAG, s.slice(p, t.end()), "", "", List.of());
        }
        if (part && !call) return NO;
        String close = "</" + t.name() + ">";
        if (thought) {
            s.openReasoning = close;
            return new Segment(Kind.REASONING, Form.TAG, s.slice(p, t.end()), "", "", List.of());
        }
        if (result) {
            int c = s.finder.find(close, t.end());
            if (c < 0 && !s.eof) return null;
            int bodyEnd = c < 0 ? b.length() : c;
            int end = c < 0 ? b.length() : c + close.length();
            Kind kind = thought ? Kind.REASONING : Kind.RESULT;
            return new Segment(
                    kind, Form.TAG, s.slice(p, end), "", thought ? s.slice(t.end(), bodyEnd) : "", List.of());
        }
        return callBlock(p, t, close, tools, wrapper);
    }

    private Segment callBlock(int p, Tag t, String close, boolean tools, boolean wrapper) {
        int bodyStart = t.end();
        int c = s.finder.find(close, bodyStart);
        int again = nextOpenOfSameName(t, bodyStart, c);
        if (again == -2) return null;
        int limit = c >= 0 ? c : b.length();
        if (again >= 0) limit = Math.min(limit, again);
        int bodyEnd = -1;
        int end = -1;
        int q = bodyStart;
        while (q < limit && Character.isWhitespace(b.charAt(q))) q++;
        s.count(q - bodyStart);
        if (q < limit && (b.charAt(q) == '{' || b.charAt(q) == '[')) {
            int j = s.jsonEnd(q, limit);
            if (j >= 0) {
                int r = j;
                while (r < limit && Character.isWhitespace(b.charAt(r))) r++;
                if (r < b.length() && b.charAt(r) == '<' && (c < 0 || r < c)) {
                    Tag other = Tag.read(b, r, s.eof);
                    if (other == null) return null;
                    if (other != Tag.NONE && other.closing()) {
                        bodyEnd = j;
                        end = other.end();
                    }
                } else if (r >= b.length() && c < 0 && !s.eof) {
                    return null;
                }
            }
        }
        if (end < 0) {
            // another opening tag of the same name before this one closes: this one was never closed
            if (again >= 0) {
                return Segment.protocol(
                        Form.TAG,
                        s.slice(p, again),
                        RawCall.malformed(
                                CallBodyReader.nameIn(s.slice(bodyStart, again)),
                                "the <" + t.name() + "> block was not closed, so it was not run"));
            }
        }
        if (end < 0 && c >= 0) {
            bodyEnd = c;
            end = c + close.length();
        }
        if (end < 0) {
            if (!s.eof) return null;
            RawCall error = RawCall.malformed(
                    CallBodyReader.nameIn(s.slice(bodyStart, b.length())),
                    "the <" + t.name() + "> block was not closed, so it was not run");
            return tools
                    ? Segment.protocol(Form.TAG, s.slice(p, b.length()))
                    : Segment.protocol(Form.TAG, s.slice(p, b.length()), error);
        }
        String body = s.slice(bodyStart, bodyEnd);
        String source = s.slice(p, end);
        if (tools) {
            List<RawCall> invocation = Envelopes.invocation(body);
            return invocation == null
                    ? Segment.protocol(Form.TAG, source)
                    : Segment.call(Form.TAG, source, invocation, "");
        }
        List<RawCall> calls =
                wrapper ? CallBodyReader.readWrapper(body, s.reasoning) : CallBodyReader.readTag(t, body, s.reasoning);
        return Segment.call(Form.TAG, source, calls, "");
    }

    /**
     * The next opening tag named like {@code t} before {@code limit} (-1: none; the end when limit is -1); -2
     * undecided.
     */
    private int nextOpenOfSameName(Tag t, int from, int limit) {
        String needle = "<" + t.name();
        int at = from;
        while (true) {
            int cand = s.finder.find(needle, at);
            if (cand < 0 || (limit >= 0 && cand >= limit)) return -1;
            Tag other = Tag.read(b, cand, s.eof);
            if (other == null) return -2;
            if (other != Tag.NONE && !other.closing() && other.name().equals(t.name())) return cand;
            at = cand + 1;
        }
    }

    /**
     * Inside a reasoning block: its text is reasoning up to the close tag (to the end when none comes), given out as it
     * arrives so a reasoning stream need not wait (SPEC RP-4); only a possible start of the close tag is held.
     */
    private Segment reasoningRest(int p) {
        String close = s.openReasoning;
        int c = s.finder.find(close, p);
        if (c >= 0) {
            s.openReasoning = null;
            return new Segment(Kind.REASONING, Form.TAG, s.slice(p, c + close.length()), "", s.slice(p, c), List.of());
        }
        int safe = b.length();
        if (!s.eof) {
            int lt = b.lastIndexOf("<");
            if (lt >= Math.max(p, b.length() - close.length() + 1)) safe = lt;
        }
        if (safe <= p) return null;
        if (s.eof) s.openReasoning = null;
        return new Segment(Kind.REASONING, Form.TAG, s.slice(p, safe), "", s.slice(p, safe), List.of());
    }

    // ---- '[' : bracketed blocks ---------------------------------------------------------------

    private Segment bracket(int p) {
        int have = b.length() - p;
        for (String word : new String[] {"[tool_calls]", "[tool_call]", "[/tool_call]"}) {
            if (have < word.length() && prefixIgnoreCase(p, word, have)) return s.eof ? NO : null;
        }
        if (startsIgnoreCase(p, "[tool_calls]")) return new Tokens(s).mistral(p, p + 12);
        if (startsIgnoreCase(p, "[tool_call]")) return bracketBody(p, p + 11);
        if (startsIgnoreCase(p, "[/tool_call]")) return Segment.protocol(Form.BRACKET, s.slice(p, p + 12));
        return NO;
    }

    /**
     * The body of a {@code [TOOL_CALL]} or bare {@code TOOL_CALL} block: closed by {@code [/TOOL_CALL]} or a
     * {@code /TOOL_CALL} line.
     */
    Segment bracketBody(int p, int bodyStart) {
        int c1 = s.finder.find("[/tool_call]", bodyStart);
        int c2 = -1;
        int c2End = -1;
        int at = Math.max(bodyStart - 1, 0);
        while (true) {
            int cand = s.finder.find("\n/tool_call", at);
            if (cand < 0 || (c1 >= 0 && cand > c1)) break;
            int le = s.lineEnd(cand + 1);
            if (le < 0) return null;
            if (b.substring(cand + 11, le).isBlank()) {
                c2 = cand + 1;
                c2End = le;
                break;
            }
            at = cand + 1;
        }
        int bodyEnd;
        int end;
        if (c2 >= 0 && (c1 < 0 || c2 < c1)) {
            bodyEnd = c2;
            end = throughNewline(c2End);
        } else if (c1 >= 0) {
            bodyEnd = c1;
            end = c1 + 12;
        } else {
            if (!s.eof) return null;
            return Segment.protocol(
                    Form.BRACKET,
                    s.slice(p, b.length()),
                    RawCall.malformed("unknown", "the TOOL_CALL block was not closed, so it was not run"));
        }
        String body = s.slice(Math.min(bodyStart, bodyEnd), bodyEnd);
        return Segment.call(Form.BRACKET, s.slice(p, end), CallBodyReader.read(body, s.reasoning), "");
    }

    /** A line-shaped block takes its line's newline with it, so removing it leaves no empty line. */
    int throughNewline(int lineEnd) {
        return lineEnd < b.length() ? lineEnd + 1 : lineEnd;
    }

    boolean startsIgnoreCase(int at, String lowerWord) {
        return s.finder.matchesAt(lowerWord, at);
    }

    boolean prefixIgnoreCase(int at, String lowerWord, int n) {
        for (int k = 0; k < n; k++) {
            if (Character.toLowerCase(b.charAt(at + k)) != lowerWord.charAt(k)) return false;
        }
        return true;
    }
}
