package dev.clawgate.provider.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.provider.internal.ToolCallParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads an agent program's stdout, line by line as it comes. The first non-blank line decides the format: a JSON object
 * with a known {@code type} means the JSON line protocol ({@code {"type":"delta","text":...}}, {@code text},
 * {@code tool_call} with {@code name} and {@code arguments}, {@code error} with {@code message}, {@code done});
 * anything else is plain text, passed on as it arrives. Every line is checked for overflow wording before it is passed
 * on, so the program's overflow notice never reaches the chat.
 */
final class CliOutput {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> EVENT_TYPES = Set.of("delta", "text", "tool_call", "error", "done");

    /** Says whether a line is the program's overflow wording (SPEC HI-5). */
    interface OverflowCheck {
        boolean isOverflow(String text);
    }

    private final StreamObserver observer;
    private final OverflowCheck overflow;
    private final StringBuilder text = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private Boolean jsonLines;
    private String error;
    private boolean overflowed;
    private boolean done;

    CliOutput(StreamObserver observer, OverflowCheck overflow) {
        this.observer = observer;
        this.overflow = overflow;
    }

    /** One stdout line (without its line break); false once nothing more should be read. */
    boolean accept(String line) {
        if (jsonLines == null) {
            if (line.isBlank()) return true;
            jsonLines = event(line) != null;
        }
        if (jsonLines) {
            JsonNode e = event(line);
            if (e == null) return true;
            switch (e.path("type").asText()) {
                case "delta", "text" -> emit(e.path("text").asText(""));
                case "tool_call" ->
                    calls.add(ToolCallParser.fromNode(
                            e.path("id").asText(null), e.path("name").asText(null), e.path("arguments"), calls.size()));
                case "error" -> {
                    error = e.path("message").asText("");
                    if (overflow.isOverflow(error)) overflowed = true;
                }
                case "done" -> done = true;
                default -> {}
            }
            return !overflowed && !done;
        }
        if (overflow.isOverflow(line)) {
            overflowed = true;
            return false;
        }
        emit((text.isEmpty() ? "" : "\n") + line);
        return true;
    }

    private void emit(String s) {
        if (s.isEmpty()) return;
        text.append(s);
        observer.onTextDelta(s);
    }

    private static JsonNode event(String line) {
        String t = line.strip();
        if (!t.startsWith("{")) return null;
        try {
            JsonNode n = JSON.readTree(t);
            return n != null
                            && n.isObject()
                            && EVENT_TYPES.contains(n.path("type").asText())
                    ? n
                    : null;
        } catch (IOException e) {
            return null;
        }
    }

    String text() {
        return text.toString();
    }

    List<ToolCall> calls() {
        return calls;
    }

    /** The message of an {@code error} event, or null. */
    String error() {
        return error;
    }

    boolean overflowed() {
        return overflowed;
    }

    /** True once a {@code done} event said the answer is complete. */
    boolean done() {
        return done;
    }
}
