package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.Role;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.testkit.webhook.CallbackReply;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything the store holds about the inbox and transcripts after a test, read through the Store API. */
record InboxAudit(
        List<InboxRecord> records,
        Map<String, List<InboxRecord>> byMessageId,
        Map<Long, List<TranscriptEntry>> userEntries,
        Map<Long, List<TranscriptEntry>> assistantEntries,
        List<OutboxEntry> outbox) {

    /** Gaps in inbox ids longer than this mean the scan went past the end. */
    private static final int MAX_GAP = 10_000;

    static InboxAudit read(Store store) {
        long total = store.inbox().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();
        List<InboxRecord> records = new ArrayList<>();
        int gap = 0;
        for (long id = 1; records.size() < total; id++) {
            Optional<InboxRecord> r = store.inbox().find(id);
            if (r.isPresent()) {
                records.add(r.get());
                gap = 0;
            } else if (++gap > MAX_GAP) {
                throw new AssertionError(
                        "inboxCounts() says " + total + " records but only " + records.size() + " were found");
            }
        }
        Map<String, List<InboxRecord>> byId = new LinkedHashMap<>();
        for (InboxRecord r : records)
            byId.computeIfAbsent(r.message().id(), k -> new ArrayList<>()).add(r);
        Map<Long, List<TranscriptEntry>> users = new LinkedHashMap<>();
        Map<Long, List<TranscriptEntry>> assistants = new LinkedHashMap<>();
        for (SessionSummary s : store.transcripts().sessions()) {
            for (TranscriptEntry e : store.transcripts().load(s.key(), Integer.MAX_VALUE)) {
                if (e.inboxId() == null) continue;
                (e.role() == Role.USER ? users : assistants)
                        .computeIfAbsent(e.inboxId(), k -> new ArrayList<>())
                        .add(e);
            }
        }
        return new InboxAudit(records, byId, users, assistants, store.outbox().byState(OutboxState.values()));
    }

    Map<InboxState, Long> states() {
        Map<InboxState, Long> m = new EnumMap<>(InboxState.class);
        for (InboxRecord r : records) m.merge(r.state(), 1L, Long::sum);
        return m;
    }

    /** Records whose run was started twice: cut by a kill and run again (SPEC IN-4: at most once more). */
    long reRuns() {
        return records.stream().filter(r -> r.attempts() == 2).count();
    }

    /** Turn ids whose reply was on the wire when a process died: reported, never resent (SPEC OUT-7). */
    java.util.Set<Long> unknownAfterSend() {
        return outbox.stream()
                .filter(e -> e.state() == OutboxState.UNKNOWN_AFTER_SEND)
                .map(OutboxEntry::turnId)
                .collect(java.util.stream.Collectors.toSet());
    }

    Map<OutboxState, Long> outboxStates() {
        Map<OutboxState, Long> m = new EnumMap<>(OutboxState.class);
        for (OutboxEntry e : outbox) m.merge(e.state(), 1L, Long::sum);
        return m;
    }

    /**
     * Final replies the platform kept, per message id, paired through the store by the turn id every reply carries (the
     * turn's inbox record), not by {@code in_reply_to}: a reply that quotes nothing (SPEC OUT-3 {@code reply_to_mode},
     * off in direct chats by default) is still counted, so a duplicate cannot hide behind a missing quote.
     */
    Map<String, Long> finalsPerMessage(List<CallbackReply> replies) {
        Map<Long, String> messageOfTurn = new HashMap<>();
        for (InboxRecord r : records) messageOfTurn.put(r.id(), r.message().id());
        Map<String, Long> out = new LinkedHashMap<>();
        for (var r : replies) {
            if (!r.isFinal() || !r.accepted()) continue;
            String id = messageOfTurn.get(r.turnId());
            if (id == null)
                throw new AssertionError(
                        "a final reply names turn " + r.turnId() + ", which no inbox record has: " + r);
            out.merge(id, 1L, Long::sum);
        }
        return out;
    }

    /**
     * SPEC OUT-12: each reply the platform got belongs to a recorded turn, answers that turn's message, and quotes it
     * if at all.
     */
    void checkRepliesPairWithTheirTurns(List<CallbackReply> replies) {
        Map<Long, InboxRecord> byInboxId = new HashMap<>();
        for (InboxRecord r : records) byInboxId.put(r.id(), r);
        assertThat(replies).allSatisfy(reply -> {
            InboxRecord turn = byInboxId.get(reply.turnId());
            assertThat(turn)
                    .as("the inbox record of turn %s (reply %s)", reply.turnId(), reply)
                    .isNotNull();
            assertThat(reply.signatureValid()).isTrue();
            if (reply.inReplyTo() != null) {
                assertThat(reply.inReplyTo())
                        .as("the quote of %s", reply)
                        .isEqualTo(turn.message().id());
            }
            if (reply.isFinal()) {
                assertThat(reply.text())
                        .as("final reply of turn %s", reply.turnId())
                        .contains(turn.message().text());
            }
        });
    }

    int maxAttempts() {
        return records.stream().mapToInt(InboxRecord::attempts).max().orElse(0);
    }
}
