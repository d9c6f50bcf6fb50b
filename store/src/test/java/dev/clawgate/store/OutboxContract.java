package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The write-ahead outbox half of the Store contract; runs on every dialect. */
abstract class OutboxContract extends StoreTestBase {

    static OutboundDraft reply(String text) {
        return new OutboundDraft("telegram", "default", "chat-1", "t-1", "m1", text, OutboundMessage.Kind.FINAL);
    }

    @Test
    void aReplyKeepsWhichOfItsPartsQuoteTheInboundMessage() {
        // SPEC OUT-3, OUT-7: the turn's reply_to decision survives in the outbox, so a replay threads the same way
        Store store = open();
        long turn = record(store, "m1");
        OutboundDraft first = new OutboundDraft(
                "telegram",
                "default",
                "chat-1",
                null,
                "m1",
                "the answer",
                OutboundMessage.Kind.FINAL,
                "",
                dev.clawgate.core.render.ReplyToMode.FIRST);

        OutboxEntry entry = store.outbox()
                .completeTurnWithReply(ALICE, turn, "stored answer", InboxState.DONE, first)
                .orElseThrow();

        assertThat(store.outbox().entry(entry.id()).orElseThrow().draft()).isEqualTo(first);
        assertThat(reply("x").replyTo()).isEqualTo(dev.clawgate.core.render.ReplyToMode.ALL);
    }

    @Test
    void aMessageSendKeepsItsPlatformNativePayloadForARetryOrAReplay() {
        // SPEC OUT-4 payload, OUT-7, AG-5: the payload is part of the intent, so a restart sends it as the turn did
        Store store = open();
        long turn = record(store, "m1");
        OutboundDraft card = OutboundDraft.send(
                new dev.clawgate.core.outbound.OutboundTarget("webhook", "default", "room-1", null, null),
                "the build card",
                "send-1",
                "{\"card\":{\"title\":\"Build 42\"}}");

        OutboxEntry entry = store.outbox().enqueue(turn, card);

        assertThat(store.outbox().entry(entry.id()).orElseThrow().draft()).isEqualTo(card);
        assertThat(store.outbox()
                        .entry(entry.id())
                        .orElseThrow()
                        .draft()
                        .message(turn)
                        .payload())
                .isEqualTo("{\"card\":{\"title\":\"Build 42\"}}");
        assertThat(rows("SELECT payload FROM outbox WHERE id = " + entry.id()))
                .containsExactly(List.of("{\"card\":{\"title\":\"Build 42\"}}"));
        assertThat(store.outbox()
                        .entry(store.outbox()
                                .enqueue(turn, OutboundDraft.send(card.target(), "plain", "send-2"))
                                .id())
                        .orElseThrow()
                        .draft()
                        .payload())
                .isNull();
    }

    @Test
    void finalReplyCommitsWithTheAssistantMessageAndTheDoneState() {
        // SPEC IN-4, OUT-5: done, the assistant message and the pending reply intent commit together
        Store store = open();
        long turn = record(store, "m1");

        OutboxEntry entry = store.outbox()
                .completeTurnWithReply(ALICE, turn, "stored answer", InboxState.DONE, reply("the answer"))
                .orElseThrow();

        assertThat(entry.turnId()).isEqualTo(turn);
        assertThat(entry.state()).isEqualTo(OutboxState.PENDING);
        assertThat(entry.draft()).isEqualTo(reply("the answer"));
        assertThat(entry.createdAt()).isEqualTo(clock.instant());
        assertThat(rows("SELECT turn_id, kind, channel, account, reply_target, thread_id, in_reply_to_message_id, "
                        + "text, state,"
                        + " attempts, created_at FROM outbox"))
                .containsExactly(List.of(
                        turn,
                        "final",
                        "telegram",
                        "default",
                        "chat-1",
                        "t-1",
                        "m1",
                        "the answer",
                        "pending",
                        0L,
                        clock.millis()));
        assertThat(value("SELECT state FROM inbox WHERE id = ?", turn)).isEqualTo("done");
        assertThat(rows("SELECT role, content FROM transcript WHERE inbox_id = ?", turn))
                .containsExactly(List.of("assistant", "stored answer"));
    }

    @Test
    void secondCompletionOfTheSameTurnAddsNothingAndReturnsTheFirstEntry() {
        // SPEC OUT-12: one final reply per turn, keyed by the turn id
        Store store = open();
        long turn = record(store, "m1");
        OutboxEntry first = store.outbox()
                .completeTurnWithReply(ALICE, turn, "a", InboxState.DONE, reply("first"))
                .orElseThrow();
        store.outbox()
                .update(
                        first.id(),
                        new OutboxUpdate(OutboxState.SENT, List.of(MessageReceipt.of("p-1")), null, 0, null));

        Optional<OutboxEntry> again =
                store.outbox().completeTurnWithReply(ALICE, turn, "b", InboxState.DONE, reply("second"));

        assertThat(again).get().satisfies(e -> {
            assertThat(e.id()).isEqualTo(first.id());
            assertThat(e.state()).isEqualTo(OutboxState.SENT);
            assertThat(e.draft().text()).isEqualTo("first");
        });
        assertThat(count("SELECT COUNT(*) FROM outbox")).isEqualTo(1);
        assertThat(rows("SELECT content FROM transcript WHERE role = 'assistant'"))
                .containsExactly(List.of("a"));
    }

    @Test
    void turnEndedElsewhereRecordsNoReplyAndReturnsEmpty() {
        // SPEC IN-4, HI-6: a turn /stop already cancelled adds no assistant message and no reply
        Store store = open();
        long turn = record(store, "m1");
        store.inbox().mark(turn, InboxState.CANCELLED, "stopped");

        assertThat(store.outbox().completeTurnWithReply(ALICE, turn, "late", InboxState.DONE, reply("late")))
                .isEmpty();

        assertThat(count("SELECT COUNT(*) FROM outbox")).isZero();
        assertThat(count("SELECT COUNT(*) FROM transcript WHERE role = 'assistant'"))
                .isZero();
        assertThat(value("SELECT state FROM inbox WHERE id = ?", turn)).isEqualTo("cancelled");
    }

    @Test
    void failedTranscriptWriteLeavesNoReplyIntentAndTheTurnOpen() throws Exception {
        // SPEC IN-4: all or nothing: without the assistant message there is no done and no reply
        Store store = open();
        long turn = record(store, "m1");
        store.inbox().mark(turn, InboxState.DISPATCHED, null);
        backend().failTranscriptInsertsContaining("BOOM");

        assertThatThrownBy(() -> store.outbox().completeTurnWithReply(ALICE, turn, "BOOM", InboxState.DONE, reply("x")))
                .isInstanceOf(StoreException.class);

        assertThat(count("SELECT COUNT(*) FROM outbox")).isZero();
        assertThat(value("SELECT state FROM inbox WHERE id = ?", turn)).isEqualTo("dispatched");
    }

    @Test
    void noticesAndNonFinalStatesAreRefused() {
        // SPEC OUT-12: notices are never replayed, so never written to the outbox
        Store store = open();
        long turn = record(store, "m1");
        OutboundDraft notice =
                new OutboundDraft("telegram", "default", "chat-1", null, null, "queued", OutboundMessage.Kind.NOTICE);

        assertThatThrownBy(() -> store.outbox().completeTurnWithReply(ALICE, turn, "a", InboxState.DONE, notice))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("notices");
        assertThatThrownBy(
                        () -> store.outbox().completeTurnWithReply(ALICE, turn, "a", InboxState.DISPATCHED, reply("x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("final state");
        assertThatThrownBy(() -> store.outbox().completeTurnWithReply(ALICE, 9999, "a", InboxState.DONE, reply("x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9999");
        assertThat(count("SELECT COUNT(*) FROM outbox")).isZero();
    }

    @Test
    void onlyOneClaimOfAPendingEntryWins() throws Exception {
        // SPEC OUT-5, OUT-12: the sending mark commits before I/O and only one sender gets it
        Store store = open();
        OutboxEntry entry = store.outbox()
                .completeTurnWithReply(ALICE, record(store, "m1"), "a", InboxState.DONE, reply("x"))
                .orElseThrow();
        List<Future<Boolean>> claims = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++)
                claims.add(pool.submit(() -> store.outbox().claim(entry.id())));
        }
        int won = 0;
        for (Future<Boolean> f : claims) won += f.get() ? 1 : 0;

        assertThat(won).isEqualTo(1);
        assertThat(value("SELECT state FROM outbox WHERE id = ?", entry.id())).isEqualTo("sending");
        assertThat(store.outbox().claim(entry.id())).isFalse();
        assertThatThrownBy(() -> store.outbox().claim(4242)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void updatesRecordStateAttemptsNextTryAndReceiptsAlsoInTheTranscript() {
        // SPEC OUT-5, OUT-7: outcomes are stored; a transient failure goes back to pending with its next try.
        // SPEC OUT-8: receipts are stored with the outbox entry and the transcript
        Store store = open();
        long turn = record(store, "m1");
        OutboxEntry entry = store.outbox()
                .completeTurnWithReply(ALICE, turn, "a", InboxState.DONE, reply("x"))
                .orElseThrow();
        assertThat(store.outbox().due(Instant.ofEpochMilli(clock.millis()), 10))
                .extracting(OutboxEntry::id)
                .containsExactly(entry.id());
        store.outbox().claim(entry.id());
        clock.advance(Duration.ofSeconds(5));
        Instant retryAt = Instant.ofEpochMilli(clock.millis()).plusSeconds(25);
        store.outbox().update(entry.id(), new OutboxUpdate(OutboxState.PENDING, List.of(), "HTTP 503", 1, retryAt));
        assertThat(store.outbox().due(retryAt.minusMillis(1), 10)).isEmpty();
        assertThat(store.outbox().due(retryAt, 10)).extracting(OutboxEntry::id).containsExactly(entry.id());
        store.outbox().claim(entry.id());
        MessageReceipt receipt = new MessageReceipt(
                "platform-77",
                List.of("platform-77", "platform-78"),
                List.of(
                        new MessageReceipt.Part(MessageReceipt.PartKind.TEXT, "platform-77"),
                        new MessageReceipt.Part(MessageReceipt.PartKind.MEDIA, "platform-78")),
                "thread-1",
                "m1",
                "platform-77",
                "platform-77",
                Instant.ofEpochMilli(1_700_000_000_000L),
                "{\"ok\":true}");
        store.outbox().update(entry.id(), new OutboxUpdate(OutboxState.SENT, List.of(receipt), null, 1, retryAt));

        assertThat(rows("SELECT state, attempts, receipt_id, detail, updated_at FROM outbox WHERE id = ?", entry.id()))
                .containsExactly(java.util.Arrays.asList("sent", 1L, "platform-77", null, clock.millis()));
        assertThat(store.outbox().entry(entry.id()))
                .get()
                .extracting(OutboxEntry::receipts)
                .isEqualTo(List.of(receipt));
        assertThat(store.outbox().replyReceipts(turn)).containsExactly(receipt);
        assertThat(value("SELECT receipt FROM transcript WHERE inbox_id = ? AND role = 'assistant'", turn))
                .asString()
                .contains("platform-78")
                .contains("thread-1");
        assertThatThrownBy(
                        () -> store.outbox().update(4242, new OutboxUpdate(OutboxState.SENT, List.of(), null, 0, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4242");
    }

    @Test
    void entriesByStateComeOldestFirstAndCountsCoverEveryState() {
        // SPEC OUT-7: recovery reads pending and sending entries in the order they were written
        Store store = open();
        List<Long> ids = new ArrayList<>();
        for (String m : List.of("m1", "m2", "m3", "m4")) {
            ids.add(store.outbox()
                    .completeTurnWithReply(ALICE, record(store, m), m, InboxState.DONE, reply(m))
                    .orElseThrow()
                    .id());
        }
        store.outbox().claim(ids.get(1));
        store.outbox()
                .update(ids.get(3), new OutboxUpdate(OutboxState.UNKNOWN_AFTER_SEND, List.of(), "crash", 0, null));

        assertThat(store.outbox().byState(OutboxState.PENDING, OutboxState.SENDING))
                .extracting(OutboxEntry::id)
                .containsExactly(ids.get(0), ids.get(1), ids.get(2));
        assertThat(store.outbox().byState(OutboxState.UNKNOWN_AFTER_SEND))
                .extracting(e -> e.draft().text())
                .containsExactly("m4");
        assertThat(store.outbox().byState()).isEmpty();
        Map<OutboxState, Long> counts = store.outbox().counts();
        assertThat(counts)
                .hasSize(OutboxState.values().length)
                .containsEntry(OutboxState.PENDING, 2L)
                .containsEntry(OutboxState.SENDING, 1L)
                .containsEntry(OutboxState.UNKNOWN_AFTER_SEND, 1L)
                .containsEntry(OutboxState.SENT, 0L);
    }

    @Test
    void pendingReplySurvivesReopeningTheStore() {
        // SPEC OUT-5, OUT-7: a committed reply intent is still pending after a restart
        Store first = open();
        long turn = record(first, "m1");
        OutboxEntry entry = first.outbox()
                .completeTurnWithReply(ALICE, turn, "a", InboxState.DONE, reply("keep me"))
                .orElseThrow();
        first.close();

        Store second = open();
        assertThat(second.outbox().byState(OutboxState.PENDING)).containsExactly(entry);
    }
}
