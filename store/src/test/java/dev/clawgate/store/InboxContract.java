package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The inbox and dedupe half of the Store contract; runs on every dialect. */
abstract class InboxContract extends StoreTestBase {

    static final SessionKey ROOM = new SessionKey("telegram", "default", ChatType.GROUP, "room-1", null, null);
    static final SessionKey ROOM_THREAD = new SessionKey("telegram", "default", ChatType.GROUP, "room-1", "t-7", null);
    static final SessionKey OTHER_ROOM = new SessionKey("telegram", "default", ChatType.GROUP, "room-2", null, null);

    @Test
    void recordedMessageIsCommittedAsReceivedWithItsDedupeKey() {
        // SPEC IN-4: recorded = the inbox row and its dedupe key are committed
        Store store = open();
        InboxRecord rec = store.inbox()
                .record(message("m1", "hi"), ALICE, keyOf("m1"), TTL)
                .orElseThrow();

        assertThat(rec.state()).isEqualTo(InboxState.RECEIVED);
        assertThat(rec.attempts()).isZero();
        assertThat(rec.session()).isEqualTo(ALICE);
        assertThat(rec.recordedAt()).isEqualTo(clock.instant());
        assertThat(rows(
                        "SELECT state, attempts, dedupe_key, message_id, channel, sender, reply_target, chat_type,"
                                + " recorded_at FROM inbox WHERE id = ?",
                        rec.id()))
                .containsExactly(List.of(
                        "received", 0L, keyOf("m1"), "m1", "telegram", "alice", "chat-1", "direct", clock.millis()));
        assertThat(rows("SELECT key, seen_at FROM dedupe")).containsExactly(List.of(keyOf("m1"), clock.millis()));
        assertThat(count("SELECT COUNT(*) FROM inbox i JOIN sessions s ON s.id = i.session_id"
                        + " WHERE s.reply_target = 'chat-1' AND s.sender = 'alice' AND s.thread_id = ''"))
                .isEqualTo(1);
    }

    @Test
    void duplicateKeyWithinTtlIsRefusedAndRecordsNothing() {
        // SPEC IN-1: a redelivery within the TTL is dropped before it can start a run
        Store store = open();
        record(store, "m1");
        clock.advance(TTL.minusMillis(1));

        Optional<InboxRecord> again = store.inbox().record(message("m1", "hi"), ALICE, keyOf("m1"), TTL);

        assertThat(again).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM inbox")).isEqualTo(1);
    }

    @Test
    void keyOlderThanTtlIsAcceptedAgainAndItsAgeRestarts() {
        // SPEC IN-1: the dedupe cache is short-lived: after the TTL the key is new again
        Store store = open();
        record(store, "m1");
        clock.advance(TTL);

        Optional<InboxRecord> later = store.inbox().record(message("m1", "hi"), ALICE, keyOf("m1"), TTL);

        assertThat(later).isPresent();
        assertThat(value("SELECT seen_at FROM dedupe WHERE key = ?", keyOf("m1")))
                .isEqualTo(clock.millis());
        clock.advance(Duration.ofMinutes(1));
        assertThat(store.inbox().record(message("m1", "hi"), ALICE, keyOf("m1"), TTL))
                .isEmpty();
        assertThat(count("SELECT COUNT(*) FROM inbox WHERE dedupe_key = ?", keyOf("m1")))
                .isEqualTo(2);
    }

    @Test
    void messageWithoutKeyIsNeverDeduplicated() {
        // SPEC IN-1: a message without a platform id is not deduplicated
        Store store = open();
        InboundMessage noId = message(null, "same text");

        assertThat(store.inbox().record(noId, ALICE, null, TTL)).isPresent();
        assertThat(store.inbox().record(noId, ALICE, null, TTL)).isPresent();

        assertThat(count("SELECT COUNT(*) FROM inbox WHERE message_id IS NULL AND dedupe_key IS NULL"))
                .isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM dedupe")).isZero();
    }

    @Test
    void expiredKeysArePrunedInBoundedBatches() {
        // SPEC IN-1: the persisted cache is short-lived; each recording prunes at most 100 expired keys
        Store store = open();
        for (int i = 0; i < 150; i++) {
            record(store, "old-" + i);
        }
        clock.advance(TTL.plusSeconds(1));

        record(store, "new-1");
        assertThat(count("SELECT COUNT(*) FROM dedupe")).isEqualTo(150 - 100 + 1);

        record(store, "new-2");
        assertThat(rows("SELECT key FROM dedupe ORDER BY key"))
                .containsExactly(List.of(keyOf("new-1")), List.of(keyOf("new-2")));
    }

    @Test
    void duplicateIsStillCaughtAfterReopen() {
        // SPEC IN-1: persisted in the store, so a redelivery after a restart is still caught
        Store first = open();
        record(first, "m1");
        first.close();

        Store second = open();
        assertThat(second.inbox().record(message("m1", "hi"), ALICE, keyOf("m1"), TTL))
                .isEmpty();
    }

    @Test
    void recordMovesThroughStatesAndCountsEachDispatch() {
        // SPEC IN-4: received -> dispatched -> done; a crash re-run dispatches it a second time
        Store store = open();
        long id = record(store, "m1");

        store.inbox().mark(id, InboxState.DISPATCHED, null);
        assertThat(store.inbox().find(id))
                .get()
                .extracting(InboxRecord::state, InboxRecord::attempts)
                .containsExactly(InboxState.DISPATCHED, 1);
        store.inbox().mark(id, InboxState.DISPATCHED, "re-run after restart");
        store.inbox().mark(id, InboxState.DONE, "answered");

        assertThat(rows("SELECT state, attempts, detail FROM inbox WHERE id = ?", id))
                .containsExactly(List.of("done", 2L, "answered"));
        assertThat(store.inbox().find(id))
                .get()
                .extracting(InboxRecord::state, InboxRecord::attempts)
                .containsExactly(InboxState.DONE, 2);
    }

    @Test
    void finalStateNeverChangesAgain() {
        // SPEC IN-4: done is final: a late cancel or a second dispatch does not move it
        Store store = open();
        long id = record(store, "m1");
        store.inbox().mark(id, InboxState.DISPATCHED, null);
        store.inbox().mark(id, InboxState.DONE, null);

        store.inbox().mark(id, InboxState.CANCELLED, "late /stop");
        store.inbox().mark(id, InboxState.DISPATCHED, null);

        assertThat(rows("SELECT state, attempts, detail FROM inbox WHERE id = ?", id))
                .containsExactly(java.util.Arrays.asList("done", 1L, null));
    }

    @Test
    void theStateAloneIsTheRecordsStateAtEveryStep() {
        // SPEC IN-4, RP-5: receipts and acks read the state a turn committed; issue 27: without the message
        Store store = open();
        long id = record(store, "m1");
        assertThat(store.inbox().state(id)).contains(InboxState.RECEIVED);
        store.inbox().mark(id, InboxState.DISPATCHED, null);
        assertThat(store.inbox().state(id)).contains(InboxState.DISPATCHED);
        store.inbox().mark(id, InboxState.FAILED, "model down");
        store.inbox().mark(id, InboxState.DONE, null);

        assertThat(store.inbox().state(id))
                .contains(InboxState.FAILED)
                .isEqualTo(store.inbox().find(id).map(InboxRecord::state));
        assertThat(store.inbox().state(id + 1000)).isEmpty();
    }

    @Test
    void bufferedGroupMessageCanLaterBeMerged() {
        // SPEC IN-4: buffered (group, no trigger) is not final; merged (into turn T) is
        Store store = open();
        long id = record(store, "m1");
        store.inbox().mark(id, InboxState.BUFFERED, null);
        store.inbox().mark(id, InboxState.MERGED, "into turn 42");

        assertThat(rows("SELECT state, detail FROM inbox WHERE id = ?", id))
                .containsExactly(List.of("merged", "into turn 42"));
    }

    @Test
    void unknownInboxRecordIsAClearError() {
        // SPEC IN-4: moving a record that was never recorded is a caller bug, said plainly
        Store store = open();
        assertThatThrownBy(() -> store.inbox().mark(4711, InboxState.DONE, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no inbox record 4711");
        assertThatThrownBy(() -> store.transcripts().completeTurn(ALICE, 4711, "answer", InboxState.DONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no inbox record 4711");
        assertThat(store.inbox().find(4711)).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM transcript")).isZero();
    }

    @Test
    void unfinishedRecordsAreListedOldestFirstAfterReopen() {
        // SPEC IN-4: after a crash, records without a final state run again
        Store first = open();
        long received = record(first, "m1");
        long done = record(first, "m2");
        long dispatched = record(first, "m3");
        long buffered = record(first, "m4");
        first.inbox().mark(done, InboxState.DISPATCHED, null);
        first.inbox().mark(done, InboxState.DONE, null);
        first.inbox().mark(dispatched, InboxState.DISPATCHED, null);
        first.inbox().mark(buffered, InboxState.BUFFERED, null);
        first.close();

        List<InboxRecord> unfinished = open().inbox().unfinished();

        assertThat(unfinished)
                .extracting(InboxRecord::id, InboxRecord::state, InboxRecord::attempts)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(received, InboxState.RECEIVED, 0),
                        org.assertj.core.groups.Tuple.tuple(dispatched, InboxState.DISPATCHED, 1));
        assertThat(unfinished.get(1).message()).isEqualTo(message("m3", "hello m3"));
        assertThat(unfinished.get(1).session()).isEqualTo(ALICE);
    }

    @Test
    void countsCoverEveryState() {
        // SPEC IN-4: the states are countable for status and metrics
        Store store = open();
        long a = record(store, "a");
        long b = record(store, "b");
        record(store, "c");
        store.inbox().mark(a, InboxState.DENIED, "not allowed");
        store.inbox().mark(b, InboxState.DENIED, "not allowed");

        Map<InboxState, Long> counts = store.inbox().counts();

        assertThat(counts)
                .hasSize(InboxState.values().length)
                .containsEntry(InboxState.DENIED, 2L)
                .containsEntry(InboxState.RECEIVED, 1L)
                .containsEntry(InboxState.DONE, 0L);
    }

    @Test
    void wholeInboundMessageRoundTripsThroughThePayload() {
        // SPEC MD-1, IN-4: the record keeps every field, attachments and the raw payload as they came
        Store store = open();
        InboundMessage full = new InboundMessage(
                "77",
                "matrix",
                "bot2",
                "@carol:example.org",
                "Carol ✨",
                "!room:example.org",
                "thread-9",
                "scope-3",
                ChatType.GROUP,
                false,
                Instant.parse("2025-02-03T04:05:06.123456789Z"),
                "look at this 📷\nline two",
                List.of(
                        new Attachment(Attachment.Kind.IMAGE, "image/png", "/tmp/a b.png"),
                        new Attachment(Attachment.Kind.AUDIO, null, "https://example.org/v.ogg")),
                "{\"event\":{\"body\":\"look at this 📷\",\"quotes\":\"'\\\"\"}}");
        SessionKey room = SessionKey.of(full);

        long id =
                store.inbox().record(full, room, "matrix|77", TTL).orElseThrow().id();

        InboxRecord back = store.inbox().find(id).orElseThrow();
        assertThat(back.message()).isEqualTo(full);
        assertThat(back.session()).isEqualTo(room);
        assertThat(rows("SELECT thread_id, scope_id, chat_type, platform_ts, account FROM inbox WHERE id = ?", id))
                .containsExactly(
                        List.of("thread-9", "scope-3", "group", full.timestamp().toEpochMilli(), "bot2"));
    }

    @Test
    void badInboxArgumentsAreRefused() {
        // SPEC IN-1: a key needs a TTL; a negative TTL is a configuration error, not "never expires"
        Store store = open();
        assertThatThrownBy(() -> store.inbox().record(message("m1", "x"), ALICE, keyOf("m1"), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TTL");
        assertThatThrownBy(() -> store.inbox().record(message("m1", "x"), ALICE, keyOf("m1"), null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(count("SELECT COUNT(*) FROM inbox")).isZero();
    }

    InboundMessage groupMessage(SessionKey room, String id, String sender) {
        return new InboundMessage(
                id,
                "telegram",
                "default",
                sender,
                null,
                room.replyTarget(),
                room.threadId(),
                null,
                ChatType.GROUP,
                false,
                clock.instant(),
                sender + " says " + id,
                List.of(),
                null);
    }

    /** Records a group message in {@code room} and leaves it buffered (no trigger); returns its inbox id. */
    long buffered(Store store, SessionKey room, String id, String sender) {
        long inboxId = store.inbox()
                .record(groupMessage(room, id, sender), room, room.replyTarget() + "|" + id, TTL)
                .orElseThrow()
                .id();
        store.inbox().mark(inboxId, InboxState.BUFFERED, null);
        return inboxId;
    }

    @Test
    void bufferedInboxGivesTheNewestBufferedRecordsOfTheSessionOldestFirst() {
        // SPEC IN-6: up to history_limit pending messages, the newest ones, in the order they were said
        Store store = open();
        long m1 = buffered(store, ROOM, "m1", "carol");
        long m2 = buffered(store, ROOM, "m2", "dave");
        long m3 = buffered(store, ROOM, "m3", "carol");
        long m4 = buffered(store, ROOM, "m4", "erin");
        long m5 = buffered(store, ROOM, "m5", "dave");
        store.inbox().mark(m3, InboxState.MERGED, "into turn 9");
        long trigger = store.inbox()
                .record(groupMessage(ROOM, "m6", "carol"), ROOM, "room-1|m6", TTL)
                .orElseThrow()
                .id();

        List<InboxRecord> newest = store.inbox().buffered(ROOM, 3);

        assertThat(newest).extracting(InboxRecord::id).containsExactly(m2, m4, m5);
        assertThat(newest).allSatisfy(r -> {
            assertThat(r.state()).isEqualTo(InboxState.BUFFERED);
            assertThat(r.session()).isEqualTo(ROOM);
        });
        assertThat(newest.get(0).message()).isEqualTo(groupMessage(ROOM, "m2", "dave"));
        assertThat(store.inbox().buffered(ROOM, 50)).extracting(InboxRecord::id).containsExactly(m1, m2, m4, m5);
        assertThat(rows("SELECT id FROM inbox WHERE state = 'buffered' ORDER BY id"))
                .containsExactly(List.of(m1), List.of(m2), List.of(m4), List.of(m5));
        assertThat(rows("SELECT state FROM inbox WHERE id = ?", trigger)).containsExactly(List.of("received"));
    }

    @Test
    void bufferedInboxKeepsToItsOwnSession() {
        // SPEC IN-6, HI-1: a room's history is its own; another room, a thread or a direct chat never leaks in
        Store store = open();
        long room = buffered(store, ROOM, "r1", "carol");
        long thread = buffered(store, ROOM_THREAD, "t1", "carol");
        long other = buffered(store, OTHER_ROOM, "o1", "carol");
        long direct = record(store, "d1");
        store.inbox().mark(direct, InboxState.BUFFERED, null);

        assertThat(store.inbox().buffered(ROOM, 10)).extracting(InboxRecord::id).containsExactly(room);
        assertThat(store.inbox().buffered(ROOM_THREAD, 10))
                .extracting(InboxRecord::id)
                .containsExactly(thread);
        assertThat(store.inbox().buffered(OTHER_ROOM, 10))
                .extracting(InboxRecord::id)
                .containsExactly(other);
        assertThat(store.inbox().buffered(ALICE, 10))
                .extracting(InboxRecord::id)
                .containsExactly(direct);
        assertThat(store.inbox().buffered(BOB, 10)).isEmpty();
        assertThat(store.inbox()
                        .buffered(new SessionKey("telegram", "default", ChatType.GROUP, "room-1", null, "carol"), 10))
                .isEmpty();
    }

    @Test
    void bufferedInboxSurvivesReopen() {
        // SPEC IN-4, IN-6: buffered records are not re-run after a restart, but they still give context
        Store first = open();
        long m1 = buffered(first, ROOM, "m1", "carol");
        long m2 = buffered(first, ROOM, "m2", "dave");
        first.close();

        Store second = open();
        assertThat(second.inbox().unfinished()).isEmpty();
        assertThat(second.inbox().buffered(ROOM, 5)).extracting(InboxRecord::id).containsExactly(m1, m2);
    }

    @Test
    void bufferedInboxLimitZeroGivesNoneAndANegativeLimitIsRefused() {
        // SPEC IN-6: history_limit 0 disables the buffer; a negative limit is a caller bug
        Store store = open();
        buffered(store, ROOM, "m1", "carol");

        assertThat(store.inbox().buffered(ROOM, 0)).isEmpty();
        assertThatThrownBy(() -> store.inbox().buffered(ROOM, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void bufferedIndexScriptAppliesTwiceAndLeavesTheAnswerAsItWas() {
        // SPEC IN-6: V003 only adds the index that serves the group history lookup; it may meet a database that has it
        Store store = open();
        long m1 = buffered(store, ROOM, "m1", "carol");
        long m2 = buffered(store, ROOM, "m2", "dave");
        buffered(store, OTHER_ROOM, "o1", "carol");

        applyBufferedIndexScript();
        applyBufferedIndexScript();

        assertThat(store.inbox().buffered(ROOM, 5)).extracting(InboxRecord::id).containsExactly(m1, m2);
        assertThat(count(
                        isPostgres()
                                ? "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND "
                                        + "indexname = 'inbox_session_state_id'"
                                : "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = "
                                        + "'inbox_session_state_id'"))
                .isEqualTo(1);
    }

    private boolean isPostgres() {
        try (Connection c = backend().raw()) {
            return c.getMetaData()
                    .getDatabaseProductName()
                    .toLowerCase(Locale.ROOT)
                    .contains("postgres");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot tell the database", e);
        }
    }

    private void applyBufferedIndexScript() {
        String resource = "db/" + (isPostgres() ? "postgresql" : "sqlite") + "/V003__buffered_index.sql";
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource);
                Connection c = backend().raw();
                Statement st = c.createStatement()) {
            assertThat(in).as(resource).isNotNull();
            String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String sql = script.lines().filter(l -> !l.strip().startsWith("--")).collect(Collectors.joining("\n"));
            for (String statement : sql.split(";")) {
                if (!statement.isBlank()) st.execute(statement);
            }
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot apply " + resource, e);
        }
    }
}
