package dev.clawgate.core.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryScopeTest {

    @Test
    void scopeIdsOfDifferentPartsNeverCollide() {
        // SPEC HI-1: joined strings collide; scope ids escape their parts
        assertThat(MemoryScope.sender("a|b", "c").id())
                .isNotEqualTo(MemoryScope.sender("a", "b|c").id());
        assertThat(MemoryScope.sender("a\\", "|b").id())
                .isNotEqualTo(MemoryScope.sender("a\\|", "b").id());
        SessionKey withThread = new SessionKey("slack", null, ChatType.GROUP, "C1", "", null);
        SessionKey noThread = new SessionKey("slack", null, ChatType.GROUP, "C1", null, null);
        assertThat(MemoryScope.session(withThread)).isNotEqualTo(MemoryScope.session(noThread));
        assertThat(MemoryScope.parse(MemoryScope.session(noThread).id())).isEqualTo(MemoryScope.session(noThread));
        assertThat(MemoryScope.parse("global")).isEqualTo(MemoryScope.global());
    }

    @Test
    void aDirectChatRemembersForTheSenderAndAGroupForTheRoom() {
        // SPEC ME-2: sender scope, and in a group also the group session
        SessionKey dm = new SessionKey("telegram", null, ChatType.DIRECT, "42", null, "alice");
        MemoryScopes direct = MemoryScopes.of(InboundMessage.direct("telegram", "1", "alice", "hello"), dm);
        assertThat(direct.home()).isEqualTo(MemoryScope.sender("telegram", "alice"));
        assertThat(direct.recallSets())
                .containsExactly(List.of(MemoryScope.sender("telegram", "alice"), MemoryScope.global()));

        SessionKey room = new SessionKey("telegram", null, ChatType.GROUP, "-100", null, null);
        InboundMessage inGroup = new InboundMessage(
                "2",
                "telegram",
                null,
                "alice",
                null,
                "-100",
                null,
                null,
                ChatType.GROUP,
                true,
                Instant.EPOCH,
                "hello",
                List.of(),
                null);
        MemoryScopes group = MemoryScopes.of(inGroup, room);
        assertThat(group.home()).isEqualTo(MemoryScope.session(room));
        assertThat(group.recallSets())
                .containsExactly(
                        List.of(MemoryScope.sender("telegram", "alice"), MemoryScope.global()),
                        List.of(MemoryScope.session(room)));
    }
}
