package dev.clawgate.core.internal.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.prompt.PromptBody;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The group history buffer read from the store (here the in-memory one; the JDBC store has its own contract test). */
class GroupHistoryTest {

    private static final SessionKey ROOM = new SessionKey("telegram", "default", ChatType.GROUP, "room-1", null, null);
    private static final SessionKey OTHER_ROOM =
            new SessionKey("telegram", "default", ChatType.GROUP, "room-2", null, null);

    private final InMemoryStore store = new InMemoryStore();

    @Test
    void pendingAreTheNewestBufferedMessagesOfTheSessionOldestFirst() {
        // SPEC IN-6: up to history_limit messages that triggered no run, in the order they were said
        InboundMessage m1 = buffer(ROOM, "carol", "one");
        InboundMessage m2 = buffer(ROOM, "dave", "two");
        InboundMessage m3 = buffer(ROOM, "carol", "three");
        buffer(OTHER_ROOM, "erin", "elsewhere");
        record(ROOM, "dave", "received, not buffered");

        assertThat(GroupHistory.pendingFor(store, ROOM, 2)).containsExactly(m2, m3);
        assertThat(GroupHistory.pendingFor(store, ROOM, 50)).containsExactly(m1, m2, m3);
    }

    @Test
    void limitZeroDisablesTheBufferAndANegativeLimitIsRefused() {
        // SPEC IN-6: messages.group.history_limit = 0 disables it
        buffer(ROOM, "carol", "one");

        assertThat(GroupHistory.pendingFor(store, ROOM, 0)).isEmpty();
        assertThatThrownBy(() -> GroupHistory.pendingFor(store, ROOM, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void mergedMessagesAreNeverRepeatedInTheNextPrompt() {
        // SPEC IN-6: once a run took them in, they are no longer pending, so the next prompt does not repeat them
        buffer(ROOM, "dave", "pizza tonight?");
        InboxRecord trigger = record(ROOM, "carol", "@clawbot thoughts?");
        List<InboundMessage> pending = GroupHistory.pendingFor(store, ROOM, 50);
        assertThat(PromptBody.body(trigger.message(), pending, true))
                .startsWith("[Chat messages since your last reply - for context]\ndave: pizza tonight?\n");
        for (InboxRecord r : store.inbox().buffered(ROOM, 50))
            store.inbox().mark(r.id(), InboxState.MERGED, "into turn " + trigger.id());

        InboxRecord next = record(ROOM, "carol", "@clawbot and now?");

        assertThat(GroupHistory.pendingFor(store, ROOM, 50)).isEmpty();
        assertThat(PromptBody.body(next.message(), GroupHistory.pendingFor(store, ROOM, 50), true))
                .isEqualTo("carol: @clawbot and now?");
        assertThat(store.inbox().counts()).containsEntry(InboxState.MERGED, 1L).doesNotContainKey(InboxState.BUFFERED);
    }

    private InboundMessage buffer(SessionKey room, String sender, String text) {
        InboxRecord r = record(room, sender, text);
        store.inbox().mark(r.id(), InboxState.BUFFERED, null);
        return r.message();
    }

    private InboxRecord record(SessionKey room, String sender, String text) {
        InboundMessage m = new InboundMessage(
                null,
                room.channel(),
                room.account(),
                sender,
                null,
                room.replyTarget(),
                room.threadId(),
                null,
                ChatType.GROUP,
                false,
                Instant.parse("2025-03-01T10:00:00Z"),
                text,
                List.of(),
                null);
        return store.inbox().record(m, room, null, Duration.ofMinutes(20)).orElseThrow();
    }
}
