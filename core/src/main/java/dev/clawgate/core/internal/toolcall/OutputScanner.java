package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.internal.toolcall.Segment.Form;
import dev.clawgate.core.internal.toolcall.Segment.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one scanner for model output (SPEC AG-1, RP-2, RP-4), used whole by the parser and the reply sanitiser and piece
 * by piece by the streaming sanitiser. It splits text into {@link Segment}s from a grammar of the tool-call dialects
 * models write:
 *
 * <pre>
 * output   := (text | block)*
 * block    := tag-block | token-block | bracket-block | fence-block | json-line | short-call
 * tag      := '&lt;' ns? NAME attrs '&gt;' body '&lt;/' ns? NAME '&gt;'
 *             NAME in call tags, wrappers, tools, results, reasoning
 * token    := '&lt;|' NAME '|&gt;' | '&lt;｜' NAME '｜&gt;'
 *             *_begin ... *_end sections (DeepSeek, Kimi), python_tag (Llama)
 * bracket  := '[TOOL_CALL]' body '[/TOOL_CALL]' | line 'TOOL_CALL' body line '/TOOL_CALL'
 *           | '[TOOL_CALLS]' json (Mistral)
 * fence    := line '```' LABEL body (line '```' | call close tag)
 * json     := a JSON value alone on its line(s) at a line start: envelope, call object or tool result
 * short    := line-start NAME '&gt;' args '&lt;/' call tag '&gt;'
 * </pre>
 *
 * Rules: a {@code CALL} segment is a complete block closed by its close tag (or, for a JSON body, by any close tag
 * right after the JSON); an unclosed call block is protocol to the end of the text and is never a call; a
 * {@code <tools>} block that declares tools (descriptions, parameter schemas) is protocol; JSON without markup is a
 * call only when it names registered tools. Everything the scanner decides with more text to come is what it decides on
 * the whole text, so streaming and batch agree. Work is linear in the text length ({@link #steps}).
 */
public final class OutputScanner {
    static final Set<String> CALL_TAGS =
            Set.of("tool_call", "toolcall", "tool-call", "invoke", "function", "function_call");
    static final Set<String> WRAPPER_TAGS = Set.of("tool_calls", "function_calls", "toolcalls");
    static final Set<String> RESULT_TAGS =
            Set.of("tool_result", "tool_response", "function_results", "function_result");
    static final Set<String> PART_TAGS = Set.of("parameter", "arg_key", "arg_value", "tool_name", "arguments");
    static final Set<String> FENCE_LABELS =
            Set.of("tool_call", "toolcall", "tool-call", "invoke", "tool", "function_call", "tool_code");
    static final int MAX_TAG = 256;

    final ReasoningTags reasoning;
    /** Registered tool names; null when any name counts (a parser not told the registry). */
    final Set<String> registered;

    final StringBuilder buf = new StringBuilder();
    final Finder finder = new Finder(buf);
    private final List<Segment> out = new ArrayList<>();
    private final StringBuilder pendingText = new StringBuilder();
    private final Rules rules;
    int pos;
    boolean eof;
    boolean afterCall;
    boolean sawContent;
    /** The close tag of the reasoning block the text is in, or null. */
    String openReasoning;

    private char lastDropped = '\n';
    private JsonSpan.Resumable leadJson;
    private int leadJsonAt = -1;
    private long extraSteps;
    /** Candidate closing-fence lines in [fenceFrom, fenceScanned) are known not to close a fence. */
    int fenceFrom = -1;

    int fenceScanned = -1;

    public OutputScanner(ReasoningTags reasoning, Set<String> registered) {
        this.reasoning = reasoning == null ? ReasoningTags.DEFAULT : reasoning;
        this.registered = registered == null ? null : Set.copyOf(registered);
        this.rules = new Rules(this);
    }

    /** Scans a whole text at once. */
    public static List<Segment> scanAll(String text, ReasoningTags reasoning, Set<String> registered) {
        OutputScanner s = new OutputScanner(reasoning, registered);
        List<Segment> all = new ArrayList<>(s.feed(text));
        all.addAll(s.finish());
        ScanWork.add(s.steps());
        return all;
    }

    /** Takes the next piece of output; returns the segments it decided (possibly none). */
    public List<Segment> feed(String delta) {
        if (eof) throw new IllegalStateException("the scanner was already finished");
        if (delta != null && !delta.isEmpty()) {
            buf.append(delta);
            run();
        }
        return drain(false);
    }

    /** Ends the output: every held piece is decided. */
    public List<Segment> finish() {
        if (eof) throw new IllegalStateException("the scanner was already finished");
        eof = true;
        run();
        return drain(true);
    }

    /** Characters examined so far: the scan's work, linear in the input. */
    public long steps() {
        return finder.steps() + extraSteps + (leadJson == null ? 0 : leadJson.steps());
    }

    void count(long n) {
        extraSteps += n;
    }

    private void run() {
        while (pos < buf.length()) {
            int before = pos;
            Segment s = rules.at(pos);
            if (s == null) break; // undecided: more text is needed
            emit(s);
            if (pos <= before) throw new IllegalStateException("scanner made no progress at " + before);
        }
        compact();
    }

    /** Records a decided segment and moves past it. */
    private void emit(Segment s) {
        pos += s.source().length();
        if (s.kind() == Kind.TEXT) {
            pendingText.append(s.source());
            if (!s.source().isBlank()) sawContent = true;
            return;
        }
        flushText();
        if (s.kind() == Kind.CALL) afterCall = true;
        if (!s.shown().isBlank()) sawContent = true;
        out.add(s);
    }

    private void flushText() {
        if (!pendingText.isEmpty()) {
            out.add(Segment.text(pendingText.toString()));
            pendingText.setLength(0);
        }
    }

    private List<Segment> drain(boolean end) {
        if (end || !pendingText.isEmpty()) flushText();
        List<Segment> decided = List.copyOf(out);
        out.clear();
        return decided;
    }

    /** Drops the decided prefix of a stream's buffer once it is large, so a long stream keeps little. */
    private void compact() {
        if (pos < 8192 || pos < buf.length() / 2) return;
        lastDropped = buf.charAt(pos - 1);
        if (leadJson != null) {
            extraSteps += leadJson.steps();
            leadJson = null; // positions shift: a held JSON value is read again once
            leadJsonAt = -1;
        }
        fenceFrom = -1;
        fenceScanned = -1;
        buf.delete(0, pos);
        finder.dropPrefix(buf, pos);
        pos = 0;
    }

    boolean lineStart(int p) {
        return p == 0 ? lastDropped == '\n' : buf.charAt(p - 1) == '\n';
    }

    /**
     * The end of the line holding {@code p} (the index of its '\n', or the buffer end), or -1 while it may still grow.
     */
    int lineEnd(int p) {
        int nl = finder.find("\n", p);
        if (nl >= 0) return nl;
        return eof ? buf.length() : -1;
    }

    /** A lead JSON value's end (multi-line is allowed at the reply start only), resumed across pieces. */
    int leadJsonEnd(int start) {
        return jsonEnd(start, buf.length());
    }

    /** The end of the JSON value at {@code start} before {@code limit}, or -1; resumed where the last look stopped. */
    int jsonEnd(int start, int limit) {
        if (leadJsonAt != start) {
            if (leadJson != null) extraSteps += leadJson.steps();
            leadJson = new JsonSpan.Resumable(start);
            leadJsonAt = start;
        }
        return leadJson.advance(buf, limit);
    }

    String slice(int from, int to) {
        return buf.substring(from, to);
    }

    Form textForm() {
        return Form.PLAIN;
    }
}
