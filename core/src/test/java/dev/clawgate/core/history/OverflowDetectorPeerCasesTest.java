package dev.clawgate.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.clawgate.core.fixtures.PeerCases;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Table-driven from shared/fixtures/peer-cases.json: the peer's two overflow lists, checked against our one detector.
 */
class OverflowDetectorPeerCasesTest {

    // SPEC HI-5: both of the peer's detectors' cases go through the same one
    @TestFactory
    Stream<DynamicTest> theOneDetectorAgreesWithBothPeerDetectors() {
        return Stream.concat(
                        PeerCases.forFunction("is_context_window_overflow_error").stream(),
                        PeerCases.forFunction("is_context_window_exceeded").stream())
                .map(c -> dynamicTest(
                        c.displayName() + " [SPEC HI-5]",
                        () -> assertThat(OverflowDetector.isContextOverflow(
                                        c.input().asText()))
                                .isEqualTo(c.expected().asBoolean())));
    }

    // SPEC HI-5: other errors are not overflows, whatever their case
    @Test
    void otherErrorsAreNotOverflowsAndCaseDoesNotMatter() {
        assertThat(OverflowDetector.isContextOverflow(null)).isFalse();
        assertThat(OverflowDetector.isContextOverflow("")).isFalse();
        assertThat(OverflowDetector.isContextOverflow("429 rate limit exceeded"))
                .isFalse();
        assertThat(OverflowDetector.isContextOverflow("PROMPT IS TOO LONG")).isTrue();
    }
}
