package dev.clawgate.core.sanitize;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The streaming half of {@link ReplySanitizer#stripProtocolMarkup} and
 * {@link ReplySanitizer#stripIsolatedToolJson}: removes protocol blocks from text that arrives
 * in pieces. A possible tag start, and a line that might open a fence or be tool JSON, is held
 * back until the next characters decide it, so the output does not depend on where the pieces
 * were cut.
 */
final class ProtocolStream {
    private enum Mode { TEXT, DROP_TAG, HOLD_TAG, DROP_FENCE, HOLD_FENCE, DROP_PERL }

    private enum LineKind { UNDECIDED, PLAIN, TOOL_FENCE, JSON_FENCE, PERL, DROP }

    private static final int MAX_TAG = 200;
    private static final Pattern TAG = Pattern.compile("</?([A-Za-z][\\w:-]*)(?:\\s[^<>]*)?/?>");
    private static final Pattern PARTIAL_TAG = Pattern.compile("</?(?:[A-Za-z][\\w:-]*)?");
    private static final Pattern PARTIAL_TAG_WITH_ATTRS = Pattern.compile("</?([A-Za-z][\\w:-]*)\\s[^<>]*");
    private static final Pattern CALL_CLOSE = Pattern.compile(
            "</(?:[A-Za-z][\\w-]*:)?(?:tool_call|toolcall|tool-call|invoke)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern THINK_CLOSE = Pattern.compile("</think>", Pattern.CASE_INSENSITIVE);
    private static final Pattern RESULT_CLOSE = Pattern.compile("</tool_result>", Pattern.CASE_INSENSITIVE);
    private static final Pattern TOOLS_CLOSE = Pattern.compile("</tools>", Pattern.CASE_INSENSITIVE);
    private static final Set<String> CALL_TAGS = Set.of("tool_call", "toolcall", "tool-call", "invoke");
    private static final Set<String> TOOL_FENCES = Set.of("tool_call", "toolcall", "tool-call", "invoke", "tool");

    private final Set<String> registered;
    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder held = new StringBuilder();
    /** The content of inline think blocks, for the reasoning stream (SPEC RP-4), until taken. */
    private final StringBuilder thought = new StringBuilder();
    private boolean thinking;
    private Mode mode = Mode.TEXT;
    private Pattern closer;
    private boolean lineStart = true;
    private boolean lineChecked;
    private boolean afterCall;

    ProtocolStream(Set<String> registered) {
        this.registered = registered;
    }

    String push(String delta) {
        pending.append(delta);
        return drain(false);
    }

    /** The reasoning the think blocks held since the last call (SPEC RP-4: diverted, not dropped); "" when none. */
    String takeThought() {
        String t = thought.toString();
        thought.setLength(0);
        return t;
    }

    /** Flushes at end of stream; every mode consumes all input at the end, so nothing is left behind. */
    String finish() {
        return drain(true);
    }

    private String drain(boolean eof) {
        StringBuilder out = new StringBuilder();
        boolean progressed = true;
        while (progressed) {
            State before = state();
            progressed = switch (mode) {
                case TEXT -> text(out, eof);
                case DROP_TAG, HOLD_TAG -> tagBody(out, eof);
                case DROP_FENCE, HOLD_FENCE, DROP_PERL -> fenceBody(out, eof);
            };
            // a step that claims progress must have consumed input or changed state, or this loop never ends
            if (progressed && state().equals(before)) throw new IllegalStateException("sanitiser step made no progress in " + mode);
        }
        return out.toString();
    }

    private record State(int pending, Mode mode, boolean lineChecked, boolean lineStart) {
    }

    private State state() {
        return new State(pending.length(), mode, lineChecked, lineStart);
    }

    private boolean text(StringBuilder out, boolean eof) {
        if (pending.isEmpty()) return false;
        int nl = pending.indexOf("\n");
        if (lineStart && !lineChecked) {
            String line = nl >= 0 ? pending.substring(0, nl) : pending.toString();
            LineKind kind = lineKind(line, nl >= 0 || eof);
            int lineEnd = nl >= 0 ? nl + 1 : pending.length();
            switch (kind) {
                case UNDECIDED -> {
                    return false;
                }
                case PLAIN -> lineChecked = true;
                case DROP -> pending.delete(0, lineEnd);
                case TOOL_FENCE, PERL -> {
                    pending.delete(0, lineEnd);
                    mode = kind == LineKind.PERL ? Mode.DROP_PERL : Mode.DROP_FENCE;
                }
                case JSON_FENCE -> {
                    held.setLength(0);
                    held.append(pending, 0, lineEnd);
                    pending.delete(0, lineEnd);
                    mode = Mode.HOLD_FENCE;
                }
            }
            return true;
        }
        int segEnd = nl >= 0 ? nl + 1 : pending.length();
        int lt = pending.indexOf("<");
        if (lt < 0 || lt >= segEnd) {
            out.append(pending, 0, segEnd);
            pending.delete(0, segEnd);
            lineStart = nl >= 0;
            lineChecked = false;
            return true;
        }
        if (lt > 0) {
            out.append(pending, 0, lt);
            pending.delete(0, lt);
            lineStart = false;
            return true;
        }
        return tag(out, eof);
    }

    /** {@code pending} starts with '<': a protocol tag (dropped, its block too), other text, or not yet known. */
    private boolean tag(StringBuilder out, boolean eof) {
        int gt = -1;
        for (int i = 1; i < pending.length() && i < MAX_TAG; i++) {
            char c = pending.charAt(i);
            if (c == '>') {
                gt = i;
                break;
            }
            if (c == '<') break;
        }
        if (gt < 0) {
            // a tag longer than MAX_TAG is not one: never hold text back without bound
            if (!eof && pending.length() < MAX_TAG && couldBeProtocolTag(pending.toString())) return false;
            return plainChar(out);
        }
        String tag = pending.substring(0, gt + 1);
        Matcher m = TAG.matcher(tag);
        if (!m.matches()) return plainChar(out);
        String name = m.group(1).toLowerCase(Locale.ROOT);
        String local = name.substring(name.lastIndexOf(':') + 1);
        boolean namespaced = name.contains(":");
        boolean close = tag.startsWith("</") || tag.endsWith("/>");
        boolean call = CALL_TAGS.contains(local);
        boolean plainName = !namespaced && (local.equals("think") || local.equals("tool_result") || local.equals("tools"));
        if (!call && !plainName) return plainChar(out);
        pending.delete(0, gt + 1);
        lineStart = false;
        lineChecked = true;
        if (close) return true;
        if (call) {
            enter(Mode.DROP_TAG, CALL_CLOSE);
        } else if (local.equals("think")) {
            enter(Mode.DROP_TAG, THINK_CLOSE);
            thinking = true;
        } else if (local.equals("tool_result")) {
            enter(Mode.DROP_TAG, RESULT_CLOSE);
        } else {
            enter(Mode.HOLD_TAG, TOOLS_CLOSE);
            held.setLength(0);
            held.append(tag);
        }
        return true;
    }

    private void enter(Mode next, Pattern close) {
        mode = next;
        closer = close;
    }

    private boolean plainChar(StringBuilder out) {
        out.append('<');
        pending.deleteCharAt(0);
        lineStart = false;
        lineChecked = true;
        return true;
    }

    private static boolean couldBeProtocolTag(String partial) {
        if (PARTIAL_TAG.matcher(partial).matches()) return true; // the name may still grow
        Matcher m = PARTIAL_TAG_WITH_ATTRS.matcher(partial);
        if (!m.matches()) return false;
        String name = m.group(1).toLowerCase(Locale.ROOT);
        String local = name.substring(name.lastIndexOf(':') + 1);
        return CALL_TAGS.contains(local) || (!name.contains(":") && Set.of("think", "tool_result", "tools").contains(local));
    }

    /** Inside a tag block: drop (or, for {@code <tools>}, hold; for {@code <think>}, divert) everything up to its close tag. */
    private boolean tagBody(StringBuilder out, boolean eof) {
        Matcher m = closer.matcher(pending);
        if (m.find()) {
            if (mode == Mode.HOLD_TAG) {
                held.append(pending, 0, m.end());
                out.append(ReplySanitizer.stripProtocolMarkup(held.toString()));
            }
            if (thinking) thought.append(pending, 0, m.start());
            pending.delete(0, m.end());
            leaveTag();
            return true;
        }
        if (eof) {
            if (mode == Mode.HOLD_TAG) {
                held.append(pending);
                out.append(ReplySanitizer.stripProtocolMarkup(held.toString()));
            }
            if (thinking) thought.append(pending);
            pending.setLength(0);
            leaveTag();
            return true;
        }
        // a possible start of the close tag waits for the next piece
        int keepFrom = pending.lastIndexOf("<");
        if (keepFrom < 0 || pending.length() - keepFrom > 40) keepFrom = pending.length();
        if (mode == Mode.HOLD_TAG) held.append(pending, 0, keepFrom);
        if (thinking) thought.append(pending, 0, keepFrom);
        pending.delete(0, keepFrom);
        return false;
    }

    private void leaveTag() {
        mode = Mode.TEXT;
        thinking = false;
    }

    /** Inside a fence or TOOL_CALL block: whole lines until the closing line. */
    private boolean fenceBody(StringBuilder out, boolean eof) {
        int nl = pending.indexOf("\n");
        if (nl < 0 && !eof) return false;
        String line = nl >= 0 ? pending.substring(0, nl) : pending.toString();
        pending.delete(0, nl >= 0 ? nl + 1 : pending.length());
        boolean closing = mode == Mode.DROP_PERL ? line.strip().equals("/TOOL_CALL") : line.strip().equals("```");
        if (mode == Mode.HOLD_FENCE) held.append(line).append(nl >= 0 ? "\n" : "");
        if (closing || (eof && pending.isEmpty())) {
            if (mode == Mode.HOLD_FENCE) emitHeldFence(out);
            mode = Mode.TEXT;
            lineStart = true;
            lineChecked = false;
        }
        return true;
    }

    private void emitHeldFence(StringBuilder out) {
        String fence = held.toString();
        int bodyStart = fence.indexOf('\n') + 1;
        int bodyEnd = fence.stripTrailing().endsWith("```") ? fence.stripTrailing().length() - 3 : fence.length();
        String body = bodyStart <= 0 || bodyEnd < bodyStart ? "" : fence.substring(bodyStart, bodyEnd);
        ToolJson.Kind kind = ToolJson.classify(body, registered, afterCall);
        if (kind == ToolJson.Kind.CALL) afterCall = true;
        if (kind != ToolJson.Kind.CONTENT) return;
        String clean = ReplySanitizer.stripProtocolMarkup(fence);
        out.append(clean);
        if (!clean.equals(fence) && fence.endsWith("\n")) out.append('\n');
    }

    private LineKind lineKind(String line, boolean complete) {
        String lead = line.stripLeading();
        if (lead.isEmpty()) return complete ? LineKind.PLAIN : LineKind.UNDECIDED;
        if (lead.startsWith("```")) {
            if (!complete) return LineKind.UNDECIDED;
            String[] info = lead.substring(3).strip().split("\\s+", 2);
            if (TOOL_FENCES.contains(info[0])) return LineKind.TOOL_FENCE;
            return info[0].equals("json") ? LineKind.JSON_FENCE : LineKind.PLAIN;
        }
        if (lead.startsWith("{") || lead.startsWith("[")) {
            if (!complete) return LineKind.UNDECIDED;
            String t = lead.strip();
            if (t.equalsIgnoreCase("[Tool results]")) return LineKind.DROP;
            ToolJson.Kind kind = ToolJson.classify(t, registered, afterCall);
            if (kind == ToolJson.Kind.CALL) afterCall = true;
            return kind == ToolJson.Kind.CONTENT ? LineKind.PLAIN : LineKind.DROP;
        }
        if (lead.startsWith("TOOL_CALL")) {
            if (!complete) return LineKind.UNDECIDED;
            return lead.strip().equals("TOOL_CALL") ? LineKind.PERL : LineKind.PLAIN;
        }
        if ("```".startsWith(lead) || "TOOL_CALL".startsWith(lead)) return complete ? LineKind.PLAIN : LineKind.UNDECIDED;
        return LineKind.PLAIN;
    }
}
