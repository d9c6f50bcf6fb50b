package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.fixtures.ModelOutput;
import dev.clawgate.core.fixtures.ModelOutput.Generated;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PropertyRun;
import dev.clawgate.core.internal.sanitize.IncrementalSanitizer;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Properties of the one scanner over generated model output (seeded, replayable: the seed is printed,
 * {@code -Dclawgate.seed=N} replays it): what runs, what shows, and that streaming in any cutting equals the whole
 * reply.
 */
class ModelOutputPropertyTest {
    private static final Set<String> TOOLS = ModelOutput.REGISTERED;

    /** The secrets of the calls the agent loop would run: readable, and naming a registered tool. */
    static Set<String> ran(String text) {
        List<ToolCall> calls =
                ToolCallParser.parse(text, TOOLS, ReasoningTags.DEFAULT).calls();
        return calls.stream()
                .filter(c -> !c.malformed() && TOOLS.contains(c.name()))
                .map(c -> c.arguments().path("k").asText())
                .collect(Collectors.toSet());
    }

    // SPEC AG-1: exactly the complete, closed calls naming registered tools run; nothing else does
    @Test
    void onlyCompleteClosedCallsOfRegisteredToolsRun() {
        PropertyRun.forAll("only complete calls run", r -> {
            Generated g = ModelOutput.generate(r);
            assertThat(ran(g.text())).as("calls run from %s", g.text()).isEqualTo(g.mustRun());
        });
    }

    // SPEC RP-2: no generated reply makes the sanitiser show protocol text or a call's arguments
    @Test
    void theSanitiserNeverEmitsProtocolText() {
        PropertyRun.forAll("no protocol text shown", r -> {
            Generated g = ModelOutput.generate(r);
            String out = ReplySanitizer.sanitize(g.text(), TOOLS);
            for (String marker : ModelOutput.PROTOCOL_MARKERS) {
                assertThat(out).as("sanitised %s", g.text()).doesNotContain(marker);
            }
        });
    }

    // SPEC RP-2, RP-4: streaming in any cutting gives exactly the whole reply's text and reasoning
    @Test
    void streamingInAnyCuttingEqualsTheWholeReply() {
        PropertyRun.forAll("streaming equals batch", r -> {
            Generated g = ModelOutput.generate(r);
            checkStreamEqualsBatch(g.text(), r);
        });
    }

    // SPEC RP-2: the fixture texts, cut at random, stream exactly as they sanitise whole
    @Test
    void fixtureTextsStreamAsTheySanitiseWhole() {
        List<String> texts = new ArrayList<>();
        for (PeerCases.PeerCase c : PeerCases.all()) {
            if (c.input().isTextual()) texts.add(c.input().asText());
            else if (c.input().isObject() && c.input().path("text").isTextual())
                texts.add(c.input().get("text").asText());
        }
        PropertyRun.forAll(
                "fixture texts stream as whole", r -> checkStreamEqualsBatch(texts.get(r.nextInt(texts.size())), r));
    }

    // SPEC AG-1: the scanner loses and invents nothing: its segments are the input, in order, however it was cut
    @Test
    void segmentsAreTheInputInOrderWhateverTheCutting() {
        PropertyRun.forAll("segments cover the input", r -> {
            Generated g = ModelOutput.generate(r);
            OutputScanner s = new OutputScanner(ReasoningTags.DEFAULT, TOOLS);
            StringBuilder again = new StringBuilder();
            List<Segment.Kind> kinds = new ArrayList<>();
            for (String piece : ModelOutput.randomCuts(g.text(), r))
                s.feed(piece).forEach(x -> again.append(x.source()));
            s.finish().forEach(x -> again.append(x.source()));
            assertThat(again.toString()).isEqualTo(g.text());
        });
    }

    private static void checkStreamEqualsBatch(String text, Random r) {
        String whole = ReplySanitizer.sanitize(text, TOOLS);
        IncrementalSanitizer s = new IncrementalSanitizer(TOOLS);
        StringBuilder streamed = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        for (String piece : ModelOutput.randomCuts(text, r)) {
            streamed.append(s.push(piece));
            reasoning.append(s.takeReasoning());
        }
        streamed.append(s.finish());
        reasoning.append(s.takeReasoning());
        assertThat(streamed.toString()).as("streamed %s", text).isEqualTo(whole);
        IncrementalSanitizer once = new IncrementalSanitizer(TOOLS);
        once.push(text);
        once.finish();
        assertThat(reasoning.toString()).as("reasoning of %s", text).isEqualTo(once.takeReasoning());
    }
}
