package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Overflow compaction beyond the peer case. */
class CompactorTest {

    // SPEC HI-5: the user is told about a compaction only when there was one
    @Test
    void aSmallHistoryIsNotCompacted() {
        List<ChatMessage> h = List.of(ChatMessage.user("q"), ChatMessage.assistant("a"), ChatMessage.user("q2"));
        Compaction c = Compactor.compact(h);
        assertThat(c.compacted()).isFalse();
        assertThat(c.history()).isEqualTo(h);
    }

    // SPEC HI-5: exactly as many messages as kept is nothing to compact
    @Test
    void exactlyTheKeptNumberOfShortMessagesIsNotCompacted() {
        List<ChatMessage> h = List.of(ChatMessage.user("1"), ChatMessage.assistant("2"));
        assertThat(Compactor.compact(h, 2, 1).compacted()).isFalse();
    }

    // SPEC HI-5
    @Test
    void droppingOrCuttingEachCountsAsCompacting() {
        List<ChatMessage> h = List.of(ChatMessage.user("1"), ChatMessage.assistant("2"), ChatMessage.user("3"));
        Compaction dropped = Compactor.compact(h, 2, 600);
        assertThat(dropped.compacted()).isTrue();
        assertThat(HistoryPeerCasesTest.wire(dropped.history())).containsExactly("user: 3");
        Compaction cut = Compactor.compact(List.of(ChatMessage.user("abcdef")), 12, 3);
        assertThat(cut.compacted()).isTrue();
        assertThat(cut.history().get(0).content()).isEqualTo("abc...");
        assertThat(Compactor.compact(List.of(ChatMessage.user("abc")), 12, 3).compacted())
                .isFalse();
    }

    // SPEC HI-5: system prompts stay and do not count
    @Test
    void systemMessagesAreKeptOutsideTheWindow() {
        List<ChatMessage> h = List.of(
                ChatMessage.system("s"), ChatMessage.user("1"), ChatMessage.assistant("2"), ChatMessage.user("3"));
        assertThat(HistoryPeerCasesTest.wire(Compactor.compact(h, 1, 600).history()))
                .containsExactly("system: s", "user: 3");
        Compaction onlySystem =
                Compactor.compact(List.of(ChatMessage.system("s"), ChatMessage.assistant("x")), 12, 600);
        assertThat(onlySystem.compacted()).isFalse();
        assertThat(onlySystem.history()).isEmpty();
    }

    // SPEC HI-5: a cut never leaves half a character
    @Test
    void aCutNeverSplitsASurrogatePair() {
        assertThat(Compactor.cut("ab\uD83D\uDE00cd", 3)).isEqualTo("ab...");
        assertThat(Compactor.cut("abc\uD83D\uDE00", 3)).isEqualTo("abc...");
    }

    // SPEC HI-5: bad limits are clear errors
    @Test
    void badLimitsAreClearErrors() {
        assertThatThrownBy(() -> Compactor.compact(List.of(), 0, 5)).hasMessageContaining("keep");
        assertThatThrownBy(() -> Compactor.compact(List.of(), 5, 0)).hasMessageContaining("maxChars");
        assertThatThrownBy(() -> Compactor.compact(null)).hasMessageContaining("history");
    }
}
