package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatType;
import org.junit.jupiter.api.Test;

// SPEC OUT-3: reply_to_mode
class ReplyToModeTest {

    // SPEC OUT-3
    @Test
    void offNeverRepliesAndAllAlwaysDoes() {
        for (int i = 0; i < 4; i++) {
            assertThat(ReplyToMode.OFF.repliesTo(i, true)).isFalse();
            assertThat(ReplyToMode.ALL.repliesTo(i, false)).isTrue();
        }
    }

    // SPEC OUT-3
    @Test
    void firstRepliesWithTheFirstMessageOnly() {
        assertThat(ReplyToMode.FIRST.repliesTo(0, false)).isTrue();
        assertThat(ReplyToMode.FIRST.repliesTo(1, false)).isFalse();
        assertThat(ReplyToMode.FIRST.repliesTo(5, true)).isFalse();
    }

    // SPEC OUT-3: batched only when the turn was a debounced batch
    @Test
    void batchedRepliesOnlyToADebouncedBatchAndOnlyOnce() {
        assertThat(ReplyToMode.BATCHED.repliesTo(0, true)).isTrue();
        assertThat(ReplyToMode.BATCHED.repliesTo(1, true)).isFalse();
        assertThat(ReplyToMode.BATCHED.repliesTo(0, false)).isFalse();
    }

    // SPEC OUT-3
    @Test
    void negativeIndexIsRefused() {
        assertThatThrownBy(() -> ReplyToMode.ALL.repliesTo(-1, false)).isInstanceOf(IllegalArgumentException.class);
    }

    // SPEC OUT-3 and the defaults table: first in groups, off in direct chats
    @Test
    void defaultsDependOnTheChatType() {
        assertThat(ReplyToMode.defaultFor(ChatType.GROUP)).isEqualTo(ReplyToMode.FIRST);
        assertThat(ReplyToMode.defaultFor(ChatType.DIRECT)).isEqualTo(ReplyToMode.OFF);
    }

    // SPEC OUT-3
    @Test
    void parsesConfigValues() {
        assertThat(ReplyToMode.parse(" Batched ")).isEqualTo(ReplyToMode.BATCHED);
        assertThat(ReplyToMode.parse("off")).isEqualTo(ReplyToMode.OFF);
        assertThatThrownBy(() -> ReplyToMode.parse("sometimes")).hasMessageContaining("off, first, all or batched");
        assertThatThrownBy(() -> ReplyToMode.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRestOfATurnAfterStreamedBlocksThreadsAsTheWholeTurnWould() {
        // SPEC OUT-3: messages are numbered across the turn; the rest's own numbering starts at 0 again
        for (ReplyToMode mode : ReplyToMode.values()) {
            for (boolean batch : new boolean[] {false, true}) {
                for (int sent = 0; sent < 3; sent++) {
                    ReplyToMode rest = mode.rest(sent, batch);
                    assertThat(rest).isNotEqualTo(ReplyToMode.BATCHED);
                    for (int i = 0; i < 3; i++) {
                        assertThat(rest.repliesTo(i, false))
                                .as("%s after %d, batch %s, part %d", mode, sent, batch, i)
                                .isEqualTo(mode.repliesTo(sent + i, batch));
                    }
                }
            }
        }
        assertThatThrownBy(() -> ReplyToMode.FIRST.rest(-1, false)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ReplyToMode.BATCHED.wireName()).isEqualTo("batched");
    }
}
