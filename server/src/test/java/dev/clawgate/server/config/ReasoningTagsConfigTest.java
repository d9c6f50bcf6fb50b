package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.toolcall.ReasoningTags;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agent.reasoning_tags}: the tag names whose content is reasoning (SPEC RP-2, RP-4). */
class ReasoningTagsConfigTest {
    @TempDir
    Path dir;

    // SPEC RP-2, RP-4: without the key, the common names
    @Test
    void withoutTheKeyTheCommonReasoningTagNamesApply() {
        assertThat(new ConfigFixture(dir)
                        .load("[agent]\nmodel = \"m\"\n")
                        .agent()
                        .reasoningTags())
                .isEqualTo(ReasoningTags.DEFAULT);
        assertThat(ReasoningTags.DEFAULT.names()).contains("think", "thinking", "reasoning", "thought", "reflection");
    }

    // SPEC RP-2, RP-4: the configured names replace the default, case-insensitively
    @Test
    void theConfiguredNamesAreTheReasoningTags() {
        ReasoningTags tags = new ConfigFixture(dir)
                .load("[agent]\nreasoning_tags = [\"Plan\", \"think\"]\n")
                .agent()
                .reasoningTags();
        assertThat(tags.names()).isEqualTo(Set.of("plan", "think"));
        assertThat(new ConfigFixture(dir)
                        .load("[agent]\nreasoning_tags = []\n")
                        .agent()
                        .reasoningTags()
                        .names())
                .isEmpty();
    }

    // SPEC RP-2: a name that cannot be a tag is a clear error naming the key
    @Test
    void aNameThatCannotBeATagIsAClearError() {
        assertThatThrownBy(() -> new ConfigFixture(dir).load("[agent]\nreasoning_tags = [\"two words\"]\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("agent.reasoning_tags")
                .hasMessageContaining("two words");
    }
}
