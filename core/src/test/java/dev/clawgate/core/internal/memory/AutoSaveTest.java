package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.testing.InMemoryMemory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class AutoSaveTest {
    private static final MemorySettings DEFAULTS = MemorySettings.defaults();
    private final InMemoryMemory memory =
            new InMemoryMemory(Clock.fixed(Instant.parse("2025-03-01T10:00:00Z"), ZoneOffset.UTC));

    private static InboundMessage message(String id, String thread, ChatType type, String text) {
        return new InboundMessage(
                id, "slack", null, "alice", null, "C1", thread, null, type, true, Instant.EPOCH, text, List.of(), null);
    }

    private static SessionKey session(InboundMessage m) {
        return new SessionKey(
                m.channel(),
                m.account(),
                m.chatType(),
                m.replyTarget(),
                m.threadId(),
                m.chatType() == ChatType.DIRECT ? m.sender() : null);
    }

    private MemoryScopes scopes(InboundMessage m) {
        return MemoryScopes.of(m, session(m));
    }

    @Test
    void messagesOfTwentyCharactersOrMoreAreSavedAndShorterOnesAreNot() {
        // SPEC ME-1: user messages of at least 20 characters
        String nineteen = "a".repeat(19);
        String twenty = "b".repeat(20);
        assertThat(AutoSave.refusal(nineteen, DEFAULTS)).isPresent();
        assertThat(AutoSave.refusal("  " + nineteen + "  \n", DEFAULTS)).isPresent();
        assertThat(AutoSave.refusal(twenty, DEFAULTS)).isEmpty();
        // characters, not UTF-16 units: 19 emoji are 19 characters
        assertThat(AutoSave.refusal("😀".repeat(19), DEFAULTS)).isPresent();
        assertThat(AutoSave.refusal("😀".repeat(20), DEFAULTS)).isEmpty();

        InboundMessage shortOne = message("m1", null, ChatType.DIRECT, nineteen);
        InboundMessage longOne = message("m2", null, ChatType.DIRECT, twenty);
        assertThat(AutoSave.save(memory, shortOne, scopes(shortOne), DEFAULTS)).isEmpty();
        assertThat(AutoSave.save(memory, longOne, scopes(longOne), DEFAULTS)).isPresent();
        assertThat(memory.all())
                .extracting(MemoryEntry::content, MemoryEntry::category)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(twenty, MemoryEntry.CONVERSATION));
    }

    @Test
    void theKeyIsChannelThreadSenderAndMessageId() {
        // SPEC ME-1: {channel}_{thread_id}_{sender}_{message_id}, or {channel}_{sender}_{message_id} without a thread
        InboundMessage threaded = message("1741.5", "1741.1", ChatType.DIRECT, "let us meet on Friday at noon");
        InboundMessage plain = message("msg_abc123", null, ChatType.DIRECT, "the deploy key rotates monthly");
        AutoSave.save(memory, threaded, scopes(threaded), DEFAULTS);
        AutoSave.save(memory, plain, scopes(plain), DEFAULTS);

        assertThat(memory.all())
                .extracting(MemoryEntry::key)
                .containsExactly("slack_1741_1_alice_1741_5", "slack_alice_msg_abc123");
    }

    @Test
    void aDirectMessageIsTheSendersAndAGroupMessageTheRooms() {
        // SPEC ME-2: memories follow the person in direct chats, the room in groups
        InboundMessage dm = message("1", null, ChatType.DIRECT, "my favourite editor is helix");
        InboundMessage group = message("2", null, ChatType.GROUP, "the team standup moves to ten");
        AutoSave.save(memory, dm, scopes(dm), DEFAULTS);
        AutoSave.save(memory, group, scopes(group), DEFAULTS);

        assertThat(memory.all())
                .extracting(MemoryEntry::scope)
                .containsExactly(MemoryScope.sender("slack", "alice"), MemoryScope.session(session(group)));
    }

    @Test
    void recalledContextToolOutputAndOversizedTextAreNeverSaved() {
        // SPEC ME-7: no recursive snowball of [Memory context] blobs, no tool output
        assertThat(AutoSave.refusal("[Memory context]\n- k: something long enough", DEFAULTS))
                .isPresent();
        assertThat(AutoSave.refusal("look at <tool_result>{\"ok\":true}</tool_result> please", DEFAULTS))
                .isPresent();
        assertThat(AutoSave.refusal("x".repeat(DEFAULTS.maxEntryChars() + 1), DEFAULTS))
                .isPresent();
        InboundMessage blob = message("1", null, ChatType.DIRECT, "[Memory context]\n- a: b and then some more words");
        assertThat(AutoSave.save(memory, blob, scopes(blob), DEFAULTS)).isEmpty();
        assertThat(memory.all()).isEmpty();
    }

    @Test
    void nothingIsSavedWhenAutoSaveOrMemoryIsOff() {
        // SPEC defaults table: memory.auto_save = true, and it can be switched off
        InboundMessage m = message("1", null, ChatType.DIRECT, "a message that is long enough");
        MemorySettings noAutoSave = new MemorySettings(true, false, 20, 5, 0.4, 4, 800, 4000, 4000, 100, Duration.ZERO);
        assertThat(AutoSave.save(memory, m, scopes(m), noAutoSave)).isEmpty();
        assertThat(AutoSave.save(memory, m, scopes(m), DEFAULTS.disabled())).isEmpty();
        assertThat(memory.all()).isEmpty();
    }

    @Test
    void eachScopeIsKeptWithinItsCap() {
        // SPEC OP-7: bounded; the oldest conversation memories go first
        MemorySettings capped = new MemorySettings(true, true, 20, 5, 0.4, 4, 800, 4000, 4000, 2, Duration.ZERO);
        for (int i = 1; i <= 3; i++) {
            InboundMessage m = message("m" + i, null, ChatType.DIRECT, "remark number " + i + " about the weather");
            AutoSave.save(memory, m, scopes(m), capped);
        }
        assertThat(memory.all()).extracting(MemoryEntry::key).containsExactly("slack_alice_m2", "slack_alice_m3");
    }
}
