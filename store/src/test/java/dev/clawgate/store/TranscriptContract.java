package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.store.UserMessage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sessions, transcripts and settings half of the Store contract; runs on every dialect. */
abstract class TranscriptContract extends StoreTestBase {

    /** Records, dispatches and appends the user message of one turn; returns its inbox id. */
    long startTurn(Store store, String id, String text) {
        long inboxId = record(store, id);
        store.inbox().mark(inboxId, InboxState.DISPATCHED, null);
        store.transcripts().appendUserMessage(ALICE, inboxId, text);
        return inboxId;
    }

    @Test
    void transcriptLoadsTheNewestMessagesOldestFirst() {
        // SPEC HI-2: at most history.max_messages are loaded: the newest ones, in order
        Store store = open();
        for (int i = 1; i <= 4; i++) {
            long turn = startTurn(store, "m" + i, "question " + i);
            store.transcripts().completeTurn(ALICE, turn, "answer " + i, InboxState.DONE);
        }

        assertThat(store.transcripts().load(ALICE, 3))
                .extracting(TranscriptEntry::role, TranscriptEntry::content)
                .containsExactly(
                        tuple(Role.ASSISTANT, "answer 3"),
                        tuple(Role.USER, "question 4"),
                        tuple(Role.ASSISTANT, "answer 4"));
        assertThat(store.transcripts().load(ALICE, 50))
                .hasSize(8)
                .first()
                .extracting(TranscriptEntry::content)
                .isEqualTo("question 1");
        assertThat(store.transcripts().load(ALICE, 0)).isEmpty();
        assertThat(store.transcripts().load(BOB, 50)).isEmpty();
        assertThatThrownBy(() -> store.transcripts().load(ALICE, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void userMessageIsAppendedOncePerInboxRecord() {
        // SPEC IN-4: the user message is appended idempotently, keyed by inbox id
        Store store = open();
        long turn = startTurn(store, "m1", "first wording");

        store.transcripts().appendUserMessage(ALICE, turn, "first wording");
        store.transcripts().appendUserMessage(ALICE, turn, "a re-run's wording");

        assertThat(rows("SELECT role, content, inbox_id FROM transcript"))
                .containsExactly(List.of("user", "first wording", turn));
        assertThat(store.transcripts().load(ALICE, 10))
                .singleElement()
                .extracting(TranscriptEntry::inboxId, TranscriptEntry::createdAt)
                .containsExactly(turn, clock.instant());
    }

    @Test
    void dispatchingWithUserMessagesCountsTheAttemptAndAppendsInOneTransaction() {
        // SPEC IN-4, HI-1: a run starts with one commit: its records dispatched (attempt counted), its user messages
        // appended
        Store store = open();
        long first = record(store, "m1");
        long second = record(store, "m2");

        store.transcripts()
                .dispatchWithUserMessages(
                        ALICE, List.of(new UserMessage(first, "one"), new UserMessage(second, "two")));

        assertThat(rows("SELECT id, state, attempts FROM inbox ORDER BY id"))
                .containsExactly(List.of(first, "dispatched", 1L), List.of(second, "dispatched", 1L));
        assertThat(rows("SELECT role, content, inbox_id FROM transcript ORDER BY id"))
                .containsExactly(List.of("user", "one", first), List.of("user", "two", second));
        // a re-run after a crash counts its attempt and keeps the first wording; a final record stays final
        store.transcripts().completeTurn(ALICE, first, "answer", InboxState.DONE);
        store.transcripts()
                .dispatchWithUserMessages(
                        ALICE, List.of(new UserMessage(first, "one again"), new UserMessage(second, "two again")));
        assertThat(rows("SELECT id, state, attempts FROM inbox ORDER BY id"))
                .containsExactly(List.of(first, "done", 1L), List.of(second, "dispatched", 2L));
        assertThat(store.transcripts().load(ALICE, 10))
                .extracting(TranscriptEntry::content)
                .containsExactly("one", "two", "answer");
    }

    @Test
    void aFailedDispatchWithUserMessagesLeavesTheRecordsAsTheyWere() throws Exception {
        // SPEC IN-4: the attempt and the user message commit together or not at all
        Store store = open();
        long turn = record(store, "m1");
        backend().failTranscriptInsertsContaining("BOOM");

        assertThatThrownBy(() -> store.transcripts()
                        .dispatchWithUserMessages(ALICE, List.of(new UserMessage(turn, "BOOM question"))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("dispatchWithUserMessages");

        assertThat(rows("SELECT state, attempts FROM inbox WHERE id = ?", turn))
                .containsExactly(List.of("received", 0L));
        assertThat(count("SELECT COUNT(*) FROM transcript")).isZero();
    }

    @Test
    void removingAUserMessageRollsBackOnlyThatTurn() {
        // SPEC HI-6: a vision error rolls the user turn back
        Store store = open();
        long kept = startTurn(store, "m1", "kept");
        long rolledBack = startTurn(store, "m2", "with an image");

        store.transcripts().removeUserMessage(ALICE, rolledBack);
        store.transcripts().removeUserMessage(BOB, kept);

        assertThat(rows("SELECT content, inbox_id FROM transcript")).containsExactly(List.of("kept", kept));
    }

    @Test
    void aSessionsActivityIsItsMessagesArrivalAndItsTurnsEndNotItsDispatch() {
        // SPEC HI-2, OP-4: last activity as sessions lists it; issue 27: the dispatch does not write the session again
        Store store = open();
        long arrived = clock.millis();
        long turn = record(store, "m1");
        clock.advance(Duration.ofSeconds(2));

        store.transcripts().dispatchWithUserMessages(ALICE, List.of(new UserMessage(turn, "question")));
        assertThat(value("SELECT last_activity FROM sessions WHERE sender = 'alice'"))
                .isEqualTo(arrived);

        clock.advance(Duration.ofSeconds(3));
        store.transcripts().completeTurn(ALICE, turn, "answer", InboxState.DONE);
        assertThat(value("SELECT last_activity FROM sessions WHERE sender = 'alice'"))
                .isEqualTo(clock.millis());
        assertThat(store.transcripts().load(ALICE, 5))
                .extracting(TranscriptEntry::content)
                .containsExactly("question", "answer");
    }

    @Test
    void completeTurnCommitsTheAnswerAndTheFinalStateTogether() {
        // SPEC IN-4: done commits in the same transaction as the assistant transcript message
        Store store = open();
        long turn = startTurn(store, "m1", "question");
        clock.advance(Duration.ofSeconds(5));

        store.transcripts().completeTurn(ALICE, turn, "answer", InboxState.DONE);

        assertThat(rows(
                        "SELECT i.state, t.role, t.content FROM inbox i JOIN transcript t ON t.inbox_id = i.id"
                                + " WHERE i.id = ? ORDER BY t.id",
                        turn))
                .containsExactly(List.of("done", "user", "question"), List.of("done", "assistant", "answer"));
        assertThat(value("SELECT last_activity FROM sessions WHERE sender = 'alice'"))
                .isEqualTo(clock.millis());
    }

    @Test
    void failedAnswerInsertLeavesTheTurnUnfinished() throws Exception {
        // SPEC IN-4: the state and the answer commit together or not at all, so the turn runs again
        Store store = open();
        long turn = startTurn(store, "m1", "question");
        backend().failTranscriptInsertsContaining("BOOM");

        assertThatThrownBy(() -> store.transcripts().completeTurn(ALICE, turn, "BOOM answer", InboxState.DONE))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("completeTurn");

        assertThat(rows("SELECT state FROM inbox WHERE id = ?", turn)).containsExactly(List.of("dispatched"));
        assertThat(count("SELECT COUNT(*) FROM transcript WHERE role = 'assistant'"))
                .isZero();
        assertThat(store.inbox().unfinished()).extracting(r -> r.id()).containsExactly(turn);
    }

    @Test
    void readersNeverSeeAFinishedTurnWithoutItsAnswer() throws Exception {
        // SPEC IN-4: done and the assistant message become visible in one step
        Store store = open();
        String torn = "SELECT COUNT(*) FROM inbox i WHERE (i.state = 'done' AND NOT EXISTS (SELECT 1 FROM transcript t"
                + " WHERE t.inbox_id = i.id AND t.role = 'assistant')) OR (i.state <> 'done' AND EXISTS (SELECT 1"
                + " FROM transcript t WHERE t.inbox_id = i.id AND t.role = 'assistant'))";
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong tornSeen = new java.util.concurrent.atomic.AtomicLong();
        Thread reader = Thread.ofVirtual().start(() -> {
            do {
                tornSeen.addAndGet(count(torn));
                checks.incrementAndGet();
            } while (writing.get());
        });
        try {
            for (int i = 0; i < 60; i++) {
                long turn = startTurn(store, "m" + i, "question " + i);
                store.transcripts().completeTurn(ALICE, turn, "answer " + i, InboxState.DONE);
            }
        } finally {
            writing.set(false);
            reader.join();
        }

        assertThat(checks.get()).isPositive();
        assertThat(tornSeen.get()).isZero();
        assertThat(count("SELECT COUNT(*) FROM transcript WHERE role = 'assistant'"))
                .isEqualTo(60);
    }

    @Test
    void turnEndedElsewhereRecordsNoAnswer() {
        // SPEC HI-6: a cancelled run records nothing more
        Store store = open();
        long turn = startTurn(store, "m1", "question");
        store.inbox().mark(turn, InboxState.CANCELLED, "/stop");

        store.transcripts().completeTurn(ALICE, turn, "late answer", InboxState.DONE);

        assertThat(rows("SELECT state FROM inbox WHERE id = ?", turn)).containsExactly(List.of("cancelled"));
        assertThat(rows("SELECT role FROM transcript")).containsExactly(List.of("user"));
    }

    @Test
    void turnWithoutAnswerOnlyMovesTheRecord() {
        // SPEC IN-4: a turn may end without an assistant message (e.g. dropped by a hook)
        Store store = open();
        long turn = startTurn(store, "m1", "question");

        store.transcripts().completeTurn(ALICE, turn, null, InboxState.DROPPED_BY_HOOK);

        assertThat(rows("SELECT state FROM inbox WHERE id = ?", turn)).containsExactly(List.of("dropped_by_hook"));
        assertThat(rows("SELECT role FROM transcript")).containsExactly(List.of("user"));
        assertThatThrownBy(() -> store.transcripts().completeTurn(ALICE, turn, "x", InboxState.DISPATCHED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("final state");
    }

    @Test
    void failedTurnRecordsItsErrorMarker() {
        // SPEC HI-6: any other model error records a [Task failed] assistant turn
        Store store = open();
        long turn = startTurn(store, "m1", "question");

        store.transcripts().completeTurn(ALICE, turn, "[Task failed]", InboxState.FAILED);

        assertThat(rows("SELECT i.state, t.content FROM inbox i JOIN transcript t ON t.inbox_id = i.id"
                        + " WHERE t.role = 'assistant'"))
                .containsExactly(List.of("failed", "[Task failed]"));
    }

    @Test
    void clearingATranscriptForgetsOnlyThatSession() {
        // SPEC HI-2: /new forgets one session's transcript
        Store store = open();
        startTurn(store, "m1", "alice's");
        store.transcripts().appendUserMessage(BOB, 99, "bob's");

        store.transcripts().clear(ALICE);

        assertThat(store.transcripts().load(ALICE, 50)).isEmpty();
        assertThat(rows("SELECT content FROM transcript")).containsExactly(List.of("bob's"));
    }

    @Test
    void replacingATranscriptSwapsItWhole() {
        // SPEC HI-5: compaction keeps the newest messages, cut
        Store store = open();
        for (int i = 0; i < 3; i++) {
            long turn = startTurn(store, "m" + i, "question " + i);
            store.transcripts().completeTurn(ALICE, turn, "answer " + i, InboxState.DONE);
        }

        store.transcripts()
                .replace(
                        ALICE,
                        List.of(
                                ChatMessage.system("summary"),
                                ChatMessage.user("question 2"),
                                ChatMessage.assistant("answer 2")));

        assertThat(store.transcripts().load(ALICE, 50))
                .extracting(TranscriptEntry::role, TranscriptEntry::content, TranscriptEntry::inboxId)
                .containsExactly(
                        tuple(Role.SYSTEM, "summary", null),
                        tuple(Role.USER, "question 2", null),
                        tuple(Role.ASSISTANT, "answer 2", null));
        assertThat(count("SELECT COUNT(*) FROM transcript")).isEqualTo(3);
    }

    @Test
    void failedReplacementKeepsTheOldTranscript() throws Exception {
        // SPEC HI-5: a compaction that fails half-way loses nothing
        Store store = open();
        long turn = startTurn(store, "m1", "question");
        store.transcripts().completeTurn(ALICE, turn, "answer", InboxState.DONE);
        backend().failTranscriptInsertsContaining("BOOM");

        assertThatThrownBy(() -> store.transcripts()
                        .replace(ALICE, List.of(ChatMessage.user("fine"), ChatMessage.assistant("BOOM"))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("replaceTranscript");

        assertThat(store.transcripts().load(ALICE, 50))
                .extracting(TranscriptEntry::content)
                .containsExactly("question", "answer");
    }

    @Test
    void replacementWithToolCallsIsRefused() {
        // SPEC HI-2: the transcript holds user and final assistant messages, never the loop's tool traffic
        Store store = open();
        startTurn(store, "m1", "question");
        ChatMessage withCall = ChatMessage.assistant("", List.of(new ToolCall("c1", "shell", null)));

        assertThatThrownBy(() -> store.transcripts().replace(ALICE, List.of(withCall)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool");
        assertThatThrownBy(() -> store.transcripts().replace(ALICE, List.of(ChatMessage.tool("c1", "shell", "out"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(rows("SELECT content FROM transcript")).containsExactly(List.of("question"));
    }

    @Test
    void settingsAreSetReplacedAndRemovedPerSession() {
        // SPEC HI-2: per-session state such as the /model override lives in the store
        Store store = open();
        store.transcripts().putSetting(ALICE, "model", "gpt-small");
        store.transcripts().putSetting(ALICE, "model", "claude-large");
        store.transcripts().putSetting(BOB, "model", "llama");

        assertThat(store.transcripts().setting(ALICE, "model")).contains("claude-large");
        assertThat(store.transcripts().setting(ALICE, "thinking")).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM session_settings")).isEqualTo(2);

        store.transcripts().putSetting(ALICE, "model", null);

        assertThat(store.transcripts().setting(ALICE, "model")).isEmpty();
        assertThat(store.transcripts().setting(BOB, "model")).contains("llama");
        assertThat(rows("SELECT value FROM session_settings")).containsExactly(List.of("llama"));
    }

    @Test
    void sessionsAreListedWithMessageCountsAndLastActivity() {
        // SPEC HI-2, OP-4: clawgate sessions lists what the store holds
        Store store = open();
        startTurn(store, "m1", "question");
        clock.advance(Duration.ofMinutes(3));
        store.transcripts().appendUserMessage(BOB, 500, "hello");
        store.transcripts().appendUserMessage(BOB, 501, "again");

        assertThat(store.transcripts().sessions())
                .extracting(SessionSummary::key, SessionSummary::messageCount, SessionSummary::lastActivity)
                .containsExactly(
                        tuple(BOB, 2, clock.instant()),
                        tuple(ALICE, 1, clock.instant().minus(Duration.ofMinutes(3))));
    }

    @Test
    void keysThatDisplayAlikeAreDifferentSessions() {
        // SPEC HI-1: the tuple is the identity; joined strings collide and are never a key
        Store store = open();
        SessionKey roomAB = new SessionKey("slack", "default", ChatType.GROUP, "a_b", null, null);
        SessionKey roomAThreadB = new SessionKey("slack", "default", ChatType.GROUP, "a", "b", null);
        assertThat(roomAB.display()).isEqualTo(roomAThreadB.display());

        store.transcripts().appendUserMessage(roomAB, 1, "in room a_b");
        store.transcripts().appendUserMessage(roomAThreadB, 2, "in thread b of room a");

        assertThat(store.transcripts().load(roomAB, 10))
                .extracting(TranscriptEntry::content)
                .containsExactly("in room a_b");
        assertThat(store.transcripts().load(roomAThreadB, 10))
                .extracting(TranscriptEntry::content)
                .containsExactly("in thread b of room a");
        assertThat(count("SELECT COUNT(*) FROM sessions")).isEqualTo(2);
    }

    @Test
    void absentThreadAndSenderComeBackAsNull() {
        // SPEC HI-1: a group session has no sender; a direct one no thread; both are columns
        Store store = open();
        SessionKey group = new SessionKey("telegram", "default", ChatType.GROUP, "-100", null, null);
        SessionKey perSender = new SessionKey("telegram", "default", ChatType.GROUP, "-100", null, "dave");
        SessionKey emptyThread = new SessionKey("telegram", "default", ChatType.GROUP, "-100", "", null);

        store.transcripts().appendUserMessage(group, 1, "shared");
        store.transcripts().appendUserMessage(perSender, 2, "dave's own");
        store.transcripts().appendUserMessage(emptyThread, 3, "same as no thread");

        assertThat(store.transcripts().sessions())
                .extracting(SessionSummary::key)
                .containsExactlyInAnyOrder(group, perSender);
        assertThat(rows("SELECT thread_id, sender FROM sessions ORDER BY id"))
                .containsExactly(List.of("", ""), List.of("", "dave"));
        assertThat(store.transcripts().load(group, 10))
                .extracting(TranscriptEntry::content)
                .containsExactly("shared", "same as no thread");
    }
}
