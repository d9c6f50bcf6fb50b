package dev.clawgate.core.internal.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The leading-lines stage on its own: it sees text in any cut, unlike through the protocol stage. */
class LeadingStreamTest {

    // SPEC RP-2, RP-3: an echoed tool summary is held until its close bracket decides it
    @Test
    void aSummaryPrefixIsHeldUntilItsBracketCloses() {
        LeadingStream s = new LeadingStream();
        assertThat(s.push("  [Used to")).isEmpty();
        assertThat(s.push("ols: a, b")).isEmpty();
        assertThat(s.push("]  Hi")).isEqualTo("Hi");
        assertThat(s.push(" there")).isEqualTo(" there");
        assertThat(s.finish()).isEmpty();
    }

    // SPEC RP-2
    @Test
    void aBracketLineThatIsNoSummaryIsReleased() {
        LeadingStream s = new LeadingStream();
        assertThat(s.push("[Used tools: a")).isEmpty();
        assertThat(s.push("\nb")).isEqualTo("[Used tools: a\nb");
        LeadingStream other = new LeadingStream();
        assertThat(other.push("[Use")).isEmpty();
        assertThat(other.push("r guide]")).isEqualTo("[User guide]");
        LeadingStream exact = new LeadingStream();
        assertThat(exact.push("[Used tools:")).isEmpty();
        assertThat(exact.finish()).isEqualTo("[Used tools:");
    }

    // SPEC RP-2: narration is decided by the start of a line
    @Test
    void narrationIsHeldUntilALineDecidesItAndDroppedWhenAnswerFollows() {
        LeadingStream s = new LeadingStream();
        assertThat(s.push("Let me ch")).isEmpty();
        assertThat(s.push("eck.\n\n")).isEmpty();
        assertThat(s.push("  OK")).isEqualTo("OK");
        LeadingStream know = new LeadingStream();
        assertThat(know.push("Let")).isEmpty();
        assertThat(know.push(" me know")).isEqualTo("Let me know");
        LeadingStream plain = new LeadingStream();
        assertThat(plain.push("  Hi")).isEqualTo("  Hi");
    }

    // SPEC RP-2: never empty
    @Test
    void onlyNarrationIsKeptAtTheEnd() {
        LeadingStream s = new LeadingStream();
        assertThat(s.push("\nLet me check.\n")).isEmpty();
        assertThat(s.finish()).isEqualTo("Let me check.");
        LeadingStream blank = new LeadingStream();
        assertThat(blank.push(" \n ")).isEmpty();
        assertThat(blank.finish()).isEmpty();
        LeadingStream partial = new LeadingStream();
        assertThat(partial.push("One mom")).isEmpty();
        assertThat(partial.finish()).isEqualTo("One mom");
    }
}
