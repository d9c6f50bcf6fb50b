package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.Role;
import dev.clawgate.core.provider.ChatRequest;
import org.junit.jupiter.api.Test;

/** The llm half of consolidation (SPEC ME-6, ME-7): the request, the reading of the answer, and fact hygiene. */
class FactExtractionTest {
    private static final String USER = "My cat is named Pixel and she loves tuna";
    private static final String REPLY =
            "What a lovely name! Pixel sounds like a very happy cat who enjoys her tuna a lot.";

    @Test
    void theRequestIsOneShotWithTheInstructionAndTheExchangeAndNoTools() {
        // SPEC ME-6: a one-shot request with a short instruction, no tools
        ChatRequest r = FactExtraction.request("gpt-test", USER, REPLY);
        assertThat(r.model()).isEqualTo("gpt-test");
        assertThat(r.tools()).isEmpty();
        assertThat(r.stream()).isFalse();
        assertThat(r.messages()).extracting(m -> m.role()).containsExactly(Role.SYSTEM, Role.USER);
        assertThat(r.messages().getFirst().content())
                .isEqualTo(FactExtraction.INSTRUCTION)
                .contains("JSON array", "at most 3");
        assertThat(r.messages().getLast().content()).isEqualTo("User:\n" + USER + "\n\nAssistant:\n" + REPLY);
    }

    @Test
    void aLongExchangeIsCutSoTheRequestStaysBounded() {
        // SPEC ME-6: bounded
        ChatRequest r = FactExtraction.request("m", "u".repeat(50_000), "r".repeat(50_000));
        assertThat(r.messages().getLast().content().length()).isLessThan(2 * FactExtraction.MAX_INPUT_CHARS + 100);
    }

    @Test
    void theFactsAreTheStringsOfTheFirstJsonArrayEvenAfterReasoningOrProse() {
        // SPEC ME-6
        assertThat(FactExtraction.parse(
                        "[\"The user's cat is named Pixel.\", \"The user's cat is named Pixel.\", 7, \" - "
                                + "\\\"Likes tuna\\\" \"]"))
                .containsExactly("The user's cat is named Pixel.", "Likes tuna");
        assertThat(FactExtraction.parse(
                        "<think>maybe [x]?</think>Here you go:\n[\"The user lives in Lisbon.\"]\nDone."))
                .containsExactly("The user lives in Lisbon.");
        assertThat(FactExtraction.parse("[]")).isEmpty();
        assertThat(FactExtraction.parse("No durable facts.")).isEmpty();
        assertThat(FactExtraction.parse("[\"unterminated")).isEmpty();
        assertThat(FactExtraction.parse("{\"facts\": 1}")).isEmpty();
        assertThat(FactExtraction.parse(null)).isEmpty();
    }

    @Test
    void hygieneRefusesMemoryContextToolOutputEmptyTalkAndTheRepliesOwnWords() {
        // SPEC ME-7: never assistant text verbatim, never [Memory context] blobs, never tool output
        assertThat(FactExtraction.refusal("The user's cat is named Pixel.", USER, REPLY, 4000))
                .isEmpty();
        assertThat(FactExtraction.refusal("[Memory context]\n- k: The user's cat is named Pixel", USER, REPLY, 4000))
                .contains("holds [Memory context]");
        assertThat(FactExtraction.refusal("<tool_result>ls: 3 files</tool_result>", USER, REPLY, 4000))
                .isPresent();
        assertThat(FactExtraction.refusal("Hi there!", USER, REPLY, 4000))
                .contains("says nothing that could be recalled");
        assertThat(FactExtraction.refusal("ok", USER, REPLY, 4000)).isPresent();
        assertThat(FactExtraction.refusal("x".repeat(301), USER, REPLY, 4000)).isPresent();
        assertThat(FactExtraction.refusal("Pixel sounds like a very happy cat who enjoys her tuna.", USER, REPLY, 4000))
                .contains("repeats the assistant's reply");
        // the user's own words are theirs, even when the reply echoes them
        assertThat(FactExtraction.refusal("My cat is named Pixel", USER, "Noted: my cat is named Pixel and more", 4000))
                .isEmpty();
    }

    @Test
    void theKeyNamesTheSendersScopeAndHashesTheWording() {
        // SPEC ME-6: key {scope}_fact_{hash}
        String k = FactExtraction.key("telegram", "111", "The user's cat is named Pixel.");
        assertThat(k).matches("telegram_111_fact_[0-9a-f]{16}");
        assertThat(FactExtraction.key("telegram", "111", "the user's cat is named pixel"))
                .isEqualTo(k);
        assertThat(FactExtraction.key("telegram", "111", "The user's dog is named Pixel."))
                .isNotEqualTo(k);
    }
}
