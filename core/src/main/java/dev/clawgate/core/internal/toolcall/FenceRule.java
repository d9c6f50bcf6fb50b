package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.internal.toolcall.Segment.Form;
import dev.clawgate.core.internal.toolcall.Segment.Kind;
import java.util.List;
import java.util.Locale;

/**
 * The fence rule of {@link OutputScanner}'s grammar: a line opening a {@code ```} fence labelled as a tool call or as
 * JSON. A tool fence is closed by its closing fence line or by a call's closing tag; a JSON fence counts only when its
 * body is a call or result envelope. Answers like the other {@link Rules}: a segment, {@link Rules#NO}, or null while
 * undecided.
 */
final class FenceRule {
    private final OutputScanner s;
    private final StringBuilder b;
    private final Rules r;

    FenceRule(OutputScanner scanner, Rules rules) {
        this.s = scanner;
        this.b = scanner.buf;
        this.r = rules;
    }

    Segment at(int p, int q) {
        if (!r.startsIgnoreCase(q, "```"))
            return b.length() - q < 3 && !s.eof && r.prefixIgnoreCase(q, "```", b.length() - q) ? null : Rules.NO;
        int le = s.lineEnd(q);
        if (le < 0) return null;
        String[] info = b.substring(q + 3, le).strip().split("\\s+", 3);
        String label = info[0].toLowerCase(Locale.ROOT);
        boolean json = label.equals("json");
        if (!json && !OutputScanner.FENCE_LABELS.contains(label)) return Rules.NO;
        if (le >= b.length()) return s.eof ? closedOrNot(p, json) : null;
        int bodyStart = le + 1;
        int fenceClose = closingFenceLine(le);
        if (fenceClose == -2) return null;
        int tagClose = -1;
        String tagUsed = null;
        if (!json) {
            for (String close : Rules.CALL_CLOSES) {
                int at = s.finder.find(close, bodyStart);
                if (at >= 0 && (tagClose < 0 || at < tagClose)) {
                    tagClose = at;
                    tagUsed = close;
                }
            }
        }
        if (fenceClose < 0 && tagClose < 0) return s.eof ? closedOrNot(p, json) : null;
        int bodyEnd;
        int end;
        if (tagClose >= 0 && (fenceClose < 0 || tagClose < fenceClose)) {
            bodyEnd = tagClose;
            end = tagClose + tagUsed.length();
        } else {
            bodyEnd = fenceClose;
            end = r.throughNewline(s.lineEnd(fenceClose + 1));
        }
        String body = s.slice(Math.min(bodyStart, bodyEnd), bodyEnd);
        String source = s.slice(p, end);
        if (json) {
            Envelopes.Classified k = Envelopes.classify(body, s.registered, s.afterCall);
            if (k.kind() == Kind.TEXT) return Rules.NO;
            return new Segment(k.kind(), Form.FENCE, source, "", "", k.calls());
        }
        List<RawCall> calls = label.equals("tool") && info.length > 1
                ? List.of(CallBodyReader.readNamed(info[1], body))
                : CallBodyReader.read(body, s.reasoning);
        return Segment.call(Form.FENCE, source, calls, "");
    }

    /** At the end of the text: an unclosed tool fence is protocol to the end; an unclosed JSON fence is text. */
    private Segment closedOrNot(int p, boolean json) {
        if (json) return Rules.NO;
        return Segment.protocol(
                Form.FENCE, s.slice(p, b.length()), RawCall.malformed("unknown", "the tool-call fence was not closed"));
    }

    /** The index of the '\n' before the next line that is only {@code ```}; -1 if none; -2 while undecided. */
    private int closingFenceLine(int from) {
        boolean known = s.fenceFrom >= 0 && from >= s.fenceFrom && from <= s.fenceScanned;
        int base = known ? s.fenceFrom : from;
        int at = known ? s.fenceScanned : from;
        while (true) {
            int cand = s.finder.find("\n```", at);
            if (cand < 0) {
                remember(base, Math.max(at, b.length() - 3));
                return -1;
            }
            int le = s.lineEnd(cand + 1);
            if (le < 0) {
                remember(base, cand);
                return -2;
            }
            s.count(le - cand);
            if (b.substring(cand + 4, le).isBlank()) {
                remember(base, cand);
                return cand;
            }
            at = cand + 1;
        }
    }

    private void remember(int from, int scanned) {
        s.fenceFrom = from;
        s.fenceScanned = scanned;
    }
}
