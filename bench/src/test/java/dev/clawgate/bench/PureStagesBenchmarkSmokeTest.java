package dev.clawgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.toolcall.ParsedReply;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One operation of each pure-stage benchmark on its sample: the input is the typical case it claims to be. */
class PureStagesBenchmarkSmokeTest {
    private final PureStagesBenchmark benchmark = new PureStagesBenchmark();
    private final PureStagesBenchmark.Sample sample = new PureStagesBenchmark.Sample();

    @BeforeEach
    void build() {
        sample.build();
    }

    // SPEC HI-3: the normalised sample history alternates, starts with a user and ends with the current message
    @Test
    void normalizeHistoryOperationYieldsAnAlternatingHistory() {
        List<ChatMessage> out = benchmark.normalizeHistory(sample);

        assertThat(out).hasSizeGreaterThan(40);
        assertThat(out.getFirst().role()).isEqualTo(Role.USER);
        for (int i = 1; i < out.size(); i++)
            assertThat(out.get(i).role()).isNotEqualTo(out.get(i - 1).role());
        assertThat(out.getLast().content()).endsWith(TurnPipelineBenchmark.TEXT).doesNotContain("<tool_result");
    }

    // SPEC RP-2: an ordinary reply passes the sanitiser byte for byte
    @Test
    void sanitizeReplyOperationKeepsAnOrdinaryReply() {
        assertThat(benchmark.sanitizeReply(sample)).isEqualTo(sample.reply);
    }

    // SPEC AG-1: the tool-call sample holds exactly one well-formed call; the plain reply none
    @Test
    void parseOperationsFindTheOneToolCallAndNoneInThePlainReply() {
        ParsedReply withCall = benchmark.parseToolCallReply(sample);
        ParsedReply plain = benchmark.parsePlainReply(sample);

        assertThat(withCall.calls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo(LookupTool.NAME);
            assertThat(c.malformed()).isFalse();
            assertThat(c.arguments().get(LookupTool.KEY).asText()).isEqualTo(LookupTool.SAMPLE_KEY);
        });
        assertThat(withCall.visibleText()).isEqualTo("Let me look that up.");
        assertThat(plain.calls()).isEmpty();
    }
}
