package dev.clawgate.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clawgate.core.fixtures.ModelOutput;
import dev.clawgate.core.internal.sanitize.IncrementalSanitizer;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.internal.toolcall.OutputScanner;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import dev.clawgate.core.internal.toolcall.Segment;
import dev.clawgate.core.internal.toolcall.ToolCallParser;

/**
 * Coverage-guided fuzzing of the one output scanner (SPEC AG-1, RP-2) with Jazzer. Without {@code JAZZER_FUZZ} it
 * replays the inputs in {@code src/test/resources/.../OutputScannerFuzzTestInputs} (crashes found are kept there as
 * regression cases); with it, it fuzzes for {@code maxDuration} (the verify build's short run and the {@code -Pfuzz}
 * profile's long one set it).
 */
class OutputScannerFuzzTest {
    // SPEC AG-1, RP-2: the short run of every verify build
    @FuzzTest(maxDuration = "20s")
    void shortRunTheScannerHoldsOnAnyText(FuzzedDataProvider data) {
        theScannerHoldsOnAnyText(data);
    }

    // SPEC AG-1, RP-2: the long run of the fuzz profile (mvn verify -Pfuzz)
    @FuzzTest(maxDuration = "15m")
    void longRunTheScannerHoldsOnAnyText(FuzzedDataProvider data) {
        theScannerHoldsOnAnyText(data);
    }

    /** On any text the scanner never throws, loses nothing, and streams exactly as it scans whole. */
    static void theScannerHoldsOnAnyText(FuzzedDataProvider data) {
        int cut = 1 + data.consumeInt(0, 64);
        String text = data.consumeRemainingAsString();
        StringBuilder again = new StringBuilder();
        for (Segment s : OutputScanner.scanAll(text, ReasoningTags.DEFAULT, ModelOutput.REGISTERED))
            again.append(s.source());
        assertThat(again.toString()).isEqualTo(text);

        String whole = ReplySanitizer.sanitize(text, ModelOutput.REGISTERED);
        IncrementalSanitizer s = new IncrementalSanitizer(ModelOutput.REGISTERED);
        StringBuilder streamed = new StringBuilder();
        for (int i = 0; i < text.length(); i += cut)
            streamed.append(s.push(text.substring(i, Math.min(text.length(), i + cut))));
        streamed.append(s.finish());
        assertThat(streamed.toString()).isEqualTo(whole);

        // a call the agent loop would run comes only from a closed block, so it never holds an unclosed tag
        ToolCallParser.parse(text, ModelOutput.REGISTERED, ReasoningTags.DEFAULT)
                .calls()
                .forEach(c -> {
                    if (!c.malformed()) assertThat(c.name()).isNotBlank();
                });
    }
}
