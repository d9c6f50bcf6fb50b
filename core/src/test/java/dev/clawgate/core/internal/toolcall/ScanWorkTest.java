package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-thread work counter and the nesting bound of call-body scans (SPEC AG-1: bounded work on any input). */
class ScanWorkTest {
    // SPEC AG-1: bodies are scanned again at most MAX_NESTING deep, and every scan gives its depth back
    @Test
    void nestingIsBoundedAndEveryLevelIsGivenBack() {
        ToolCallParser.parse(
                "<tool_calls><tool_call><invoke name=\"shell\">{}</invoke></tool_call></tool_calls>",
                Set.of("shell"),
                ReasoningTags.DEFAULT);
        for (int i = 0; i < ScanWork.MAX_NESTING; i++)
            assertThat(ScanWork.enterNested()).as("level %d", i + 1).isTrue();
        assertThat(ScanWork.enterNested()).as("one level too deep").isFalse();
        for (int i = 0; i < ScanWork.MAX_NESTING; i++) ScanWork.leaveNested();
        assertThat(ScanWork.enterNested()).isTrue();
        ScanWork.leaveNested();
    }

    // SPEC AG-1: the counter starts afresh and adds what each scan reports
    @Test
    void theCounterAddsWhatScansReport() {
        ScanWork.reset();
        assertThat(ScanWork.steps()).isZero();
        ScanWork.add(5);
        ScanWork.add(2);
        assertThat(ScanWork.steps()).isEqualTo(7);
        ScanWork.reset();
        ToolCallParser.parse("plain words", Set.of(), ReasoningTags.DEFAULT);
        assertThat(ScanWork.steps()).isBetween((long) "plain words".length(), 4L * "plain words".length());
    }
}
