package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.clawgate.core.internal.sanitize.IncrementalSanitizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The scanner on hostile input (SPEC AG-1, RP-2): deep nesting, unclosed tags, a megabyte of brackets. It never throws
 * and its work — the characters it examines, counted, not timed — is linear: at most {@link #STEPS_PER_CHAR} per input
 * character at every size up to 1 MiB, whole or streamed in small pieces.
 */
class AdversarialInputTest {
    static final int STEPS_PER_CHAR = 24;
    /** Sizes from 16 KiB up to this (1 MiB; mutation testing, which runs this per mutant, sets 16 KiB). */
    private static final int MAX = Integer.getInteger("clawgate.adversarial.max", 1 << 20);

    static Map<String, IntFunction<String>> inputs() {
        Map<String, IntFunction<String>> m = new LinkedHashMap<>();
        m.put("open brackets", n -> "[".repeat(n));
        m.put("open braces", n -> "{".repeat(n));
        m.put("angle brackets", n -> "<".repeat(n));
        m.put("unclosed call tags", n -> repeat("<tool_call>", n));
        m.put("unclosed call tags with json", n -> repeat("<tool_call>{\"name\":\"a\",", n));
        m.put("unclosed reasoning tags", n -> repeat("<think>", n));
        m.put(
                "nested wrappers",
                n -> repeat("<tool_calls><invoke name=\"x\">", n / 2) + repeat("</invoke></tool_calls>", n / 2));
        m.put(
                "alternating nested wrappers",
                n -> repeat("<function_calls><tool_calls>", n / 2) + repeat("</tool_calls></function_calls>", n / 2));
        m.put("tool fences", n -> repeat("```tool_call\n", n));
        m.put("json fences", n -> repeat("```json\n{\n", n));
        m.put("bracket calls", n -> repeat("[TOOL_CALL]", n));
        m.put("bare call lines", n -> repeat("TOOL_CALL\n", n));
        m.put("section tokens", n -> repeat("<|tool_calls_section_begin|>", n));
        m.put("short calls", n -> repeat("shell>ls\n", n));
        m.put("long tag starts", n -> repeat("<tool_call " + "a".repeat(250), n));
        m.put("json lines", n -> repeat("\n{\"a\":[", n));
        m.put("xml body", n -> "<tool_call>" + repeat("<a>", n) + "</tool_call>");
        m.put("bracket body", n -> "<tool_call>" + "[".repeat(n) + "</tool_call>");
        m.put(
                "parameters without close",
                n -> "<invoke name=\"x\">" + repeat("<parameter name=\"k\">", n) + "</invoke>");
        m.put("mistral", n -> repeat("[TOOL_CALLS]", n));
        return m;
    }

    private static String repeat(String unit, int n) {
        return unit.repeat(Math.max(1, n / unit.length()));
    }

    // SPEC AG-1, RP-2: linear work and no exception on every hostile shape, whole and streamed
    @TestFactory
    Stream<DynamicTest> hostileInputCostsLinearWork() {
        return inputs().entrySet().stream()
                .map(e -> dynamicTest(e.getKey(), () -> {
                    for (int n = 1 << 14; n <= MAX; n <<= 2) {
                        String text = e.getValue().apply(n);
                        ScanWork.reset();
                        ToolCallParser.parse(text, Set.of("shell"), ReasoningTags.DEFAULT);
                        long whole = ScanWork.steps();
                        // characters are looked at (at least half of them are counted), none more than a constant
                        // number of times
                        assertThat(whole)
                                .as("%s: parse steps for %d chars", e.getKey(), text.length())
                                .isBetween((long) text.length() / 2, (long) STEPS_PER_CHAR * text.length());
                        ScanWork.reset();
                        IncrementalSanitizer s = new IncrementalSanitizer(Set.of("shell"));
                        for (int i = 0; i < text.length(); i += 64)
                            s.push(text.substring(i, Math.min(text.length(), i + 64)));
                        s.finish();
                        long streamed = ScanWork.steps() + s.scanSteps();
                        assertThat(streamed)
                                .as("%s: streamed steps for %d chars", e.getKey(), text.length())
                                .isBetween((long) text.length() / 4, (long) STEPS_PER_CHAR * text.length());
                        System.out.printf(
                                "adversarial %-30s %8d chars: %9d steps whole (%.2f/char), %9d streamed (%.2f/char)%n",
                                e.getKey(),
                                text.length(),
                                whole,
                                (double) whole / text.length(),
                                streamed,
                                (double) streamed / text.length());
                    }
                }));
    }
}
