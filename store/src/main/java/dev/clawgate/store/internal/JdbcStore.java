package dev.clawgate.store.internal;

import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.store.UserMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Store} on either SQL dialect. Each method is one {@link Database} call, so one
 * transaction; the SQL lives in the table classes ({@link InboxRows}, {@link TranscriptRows},
 * {@link SessionRows}, {@link PairingRows}, {@link OutboxRows}).
 */
public final class JdbcStore implements Store {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcStore.class);

    private final Database db;
    private final Clock clock;
    private final JdbcMemory memory;
    private final JdbcCronBook cron;

    public JdbcStore(Database db, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.memory = new JdbcMemory(db, clock);
        this.cron = new JdbcCronBook(db, clock);
    }

    @Override
    public dev.clawgate.core.cron.CronBook cron() {
        return cron;
    }

    @Override
    public Memory memory() {
        return memory;
    }

    @Override
    public Optional<InboxRecord> recordInbound(InboundMessage message, SessionKey session, String dedupeKey,
                                               Duration dedupeTtl) {
        Objects.requireNonNull(message, "message");
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (dedupeKey != null && (dedupeTtl == null || dedupeTtl.isNegative())) {
            throw new IllegalArgumentException("a dedupe key needs a TTL of zero or more, got " + dedupeTtl);
        }
        String payload = InboundJson.write(message);
        return db.write("recordInbound", tx -> record(tx, message, key, dedupeKey, dedupeTtl, payload));
    }

    @Override
    public Optional<InboxRecord> claimFireAndRecord(CronFire fire, SessionKey session, String dedupeKey, Duration dedupeTtl) {
        Objects.requireNonNull(fire, "fire");
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (dedupeKey != null && (dedupeTtl == null || dedupeTtl.isNegative())) {
            throw new IllegalArgumentException("a dedupe key needs a TTL of zero or more, got " + dedupeTtl);
        }
        String payload = InboundJson.write(fire.message());
        // one transaction: a crash or failure leaves the fire either due or recorded, never claimed and lost
        return db.write("claimFireAndRecord", tx -> JdbcCronBook.claim(tx, fire.jobId(), fire.fireAt(), fire.next())
                ? record(tx, fire.message(), key, dedupeKey, dedupeTtl, payload)
                : Optional.<InboxRecord>empty());
    }

    /** The inbox row and its dedupe key inside the caller's transaction; empty for a fresh duplicate. */
    private Optional<InboxRecord> record(Tx tx, InboundMessage message, SessionKey key, String dedupeKey, Duration dedupeTtl,
                                         String payload) throws java.sql.SQLException {
        long now = clock.millis();
        if (dedupeKey != null && !InboxRows.claimKey(tx, db.dialect(), dedupeKey, now, now - dedupeTtl.toMillis())) {
            return Optional.empty();
        }
        long sessionId = SessionRows.touch(tx, key, now);
        long id = InboxRows.insert(tx, message, sessionId, dedupeKey, payload, now);
        return Optional.of(new InboxRecord(id, message, key, InboxState.RECEIVED, 0, Instant.ofEpochMilli(now)));
    }

    @Override
    public void markInbox(long inboxId, InboxState state, String detail) {
        Objects.requireNonNull(state, "state");
        boolean moved = db.write("markInbox", tx -> InboxRows.move(tx, inboxId, state, detail, clock.millis()));
        if (!moved) {
            LOG.debug("inbox record {} already has a final state; not moved to {}", inboxId, state.wireName());
        }
    }

    @Override
    public Optional<InboxRecord> inbox(long inboxId) {
        return db.read("inbox", tx -> InboxRows.find(tx, inboxId));
    }

    @Override
    public List<InboxRecord> unfinishedInbox() {
        return db.read("unfinishedInbox", InboxRows::unfinished);
    }

    @Override
    public Map<InboxState, Long> inboxCounts() {
        return db.read("inboxCounts", InboxRows::counts);
    }

    @Override
    public List<InboxRecord> bufferedInbox(SessionKey session, int limit) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        if (limit == 0) {
            return List.of();
        }
        return db.read("bufferedInbox", tx -> InboxRows.buffered(tx, key, limit));
    }

    @Override
    public List<TranscriptEntry> loadTranscript(SessionKey session, int maxMessages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (maxMessages < 0) {
            throw new IllegalArgumentException("maxMessages must not be negative, got " + maxMessages);
        }
        if (maxMessages == 0) {
            return List.of();
        }
        return db.read("loadTranscript", tx -> TranscriptRows.newest(tx, key, maxMessages));
    }

    @Override
    public void appendUserMessage(SessionKey session, long inboxId, String content) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(content, "content");
        db.write("appendUserMessage", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.touch(tx, key, now);
            return TranscriptRows.append(tx, sessionId, Role.USER, content, inboxId, now);
        });
    }

    @Override
    public void dispatchWithUserMessages(SessionKey session, List<UserMessage> messages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        List<UserMessage> all = List.copyOf(messages);
        if (all.isEmpty()) return;
        db.write("dispatchWithUserMessages", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.touch(tx, key, now);
            for (UserMessage m : all) {
                InboxRows.move(tx, m.inboxId(), InboxState.DISPATCHED, null, now);
                TranscriptRows.append(tx, sessionId, Role.USER, m.content(), m.inboxId(), now);
            }
            return null;
        });
    }

    @Override
    public void removeUserMessage(SessionKey session, long inboxId) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        db.write("removeUserMessage", tx -> TranscriptRows.removeUserMessage(tx, key, inboxId));
    }

    /**
     * {@inheritDoc} When the record already has a final state (say a /stop cancelled it), nothing is
     * recorded: a turn that was ended elsewhere adds no assistant message (SPEC HI-6).
     */
    @Override
    public void completeTurn(SessionKey session, long inboxId, String assistantContent, InboxState finalState) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(finalState, "finalState");
        if (!finalState.isFinal()) {
            throw new IllegalArgumentException("a turn must end in a final state, got " + finalState.wireName());
        }
        boolean completed = db.write("completeTurn", tx -> {
            long now = clock.millis();
            if (!InboxRows.finish(tx, inboxId, finalState, now)) {
                return false;
            }
            long sessionId = SessionRows.touch(tx, key, now);
            if (assistantContent != null) {
                TranscriptRows.append(tx, sessionId, Role.ASSISTANT, assistantContent, inboxId, now);
            }
            return true;
        });
        if (!completed) {
            LOG.debug("inbox record {} already has a final state; turn not recorded again", inboxId);
        }
    }

    @Override
    public void clearTranscript(SessionKey session) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        db.write("clearTranscript", tx -> TranscriptRows.clear(tx, key));
    }

    /**
     * {@inheritDoc} The transcript keeps roles and text only, so a message with tool calls or a
     * tool-call id is refused rather than stored without them. Replaced messages lose their link
     * to an inbox record.
     */
    @Override
    public void replaceTranscript(SessionKey session, List<ChatMessage> messages) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        List<ChatMessage> copy = List.copyOf(Objects.requireNonNull(messages, "messages"));
        for (ChatMessage m : copy) {
            if (!m.toolCalls().isEmpty() || m.toolCallId() != null) {
                throw new IllegalArgumentException("a transcript holds no tool calls or tool results, got a "
                        + m.role().wireName() + " message with them");
            }
        }
        db.write("replaceTranscript", tx -> {
            long now = clock.millis();
            long sessionId = SessionRows.ensure(tx, key, now);
            TranscriptRows.clear(tx, sessionId);
            for (ChatMessage m : copy) {
                TranscriptRows.append(tx, sessionId, m.role(), m.content(), null, now);
            }
            return null;
        });
    }

    @Override
    public Optional<String> sessionSetting(SessionKey session, String name) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(name, "name");
        return db.read("sessionSetting", tx -> SessionRows.setting(tx, key, name));
    }

    @Override
    public void putSessionSetting(SessionKey session, String name, String value) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(name, "name");
        db.write("putSessionSetting", tx -> {
            SessionRows.putSetting(tx, key, name, value, clock.millis());
            return null;
        });
    }

    @Override
    public List<SessionSummary> sessions() {
        return db.read("sessions", SessionRows::summaries);
    }

    // --- pairing (SPEC IN-5)

    @Override
    public Optional<Pairing> pendingPairing(String channel, String account, String sender, Instant now) {
        requireIds(channel, account, sender);
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.read("pendingPairing", tx -> PairingRows.pending(tx, channel, account, sender, at));
    }

    @Override
    public Pairing createPairing(String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
        requireIds(channel, account, sender);
        String key = Pairing.normaliseCode(code);
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a pairing code must not be blank");
        }
        if (!expiresAt.isAfter(now)) {
            throw new IllegalArgumentException("a pairing must expire after it is created");
        }
        Optional<Pairing> created = db.write("createPairing", tx -> PairingRows.create(tx, channel, account, sender, key,
                now.toEpochMilli(), expiresAt.toEpochMilli()));
        return created.orElseThrow(() -> new IllegalArgumentException("pairing code already in use"));
    }

    @Override
    public int pendingPairingCount(String channel, String account, Instant now) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.read("pendingPairingCount", tx -> PairingRows.pendingCount(tx, channel, account, at));
    }

    @Override
    public List<Pairing> pairings(boolean includeExpired) {
        long now = clock.millis();
        return db.read("pairings", tx -> PairingRows.list(tx, includeExpired, now));
    }

    @Override
    public Optional<Pairing> approvePairing(String code, Instant now) {
        String key = Pairing.normaliseCode(code);
        long at = Objects.requireNonNull(now, "now").toEpochMilli();
        return db.write("approvePairing", tx -> PairingRows.decide(tx, key, Pairing.Status.APPROVED, at));
    }

    @Override
    public Optional<Pairing> rejectPairing(String code) {
        String key = Pairing.normaliseCode(code);
        return db.write("rejectPairing", tx -> PairingRows.decide(tx, key, Pairing.Status.REJECTED, clock.millis()));
    }

    @Override
    public boolean isApproved(String channel, String account, String sender) {
        requireIds(channel, account, sender);
        return db.read("isApproved", tx -> PairingRows.isPaired(tx, channel, account, sender));
    }

    private static void requireIds(String channel, String account, String sender) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(sender, "sender");
    }

    @Override
    public boolean healthy() {
        try {
            return db.read("healthy", tx -> tx.first("SELECT 1", rs -> rs.getInt(1))).orElse(0) == 1;
        } catch (StoreException e) {
            LOG.debug("store health check failed: {}", e.getMessage());
            return false;
        }
    }

    // --- outbox (SPEC OUT-5..OUT-7)

    /**
     * {@inheritDoc} The inbox update, the assistant message and the outbox row are one transaction,
     * so after a crash either all three exist or none does (SPEC IN-4).
     */
    @Override
    public Optional<OutboxEntry> completeTurnWithReply(SessionKey session, long inboxId, String assistantContent,
                                                       InboxState finalState, OutboundDraft reply) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        Objects.requireNonNull(finalState, "finalState");
        Objects.requireNonNull(reply, "reply");
        if (!finalState.isFinal()) {
            throw new IllegalArgumentException("a turn must end in a final state, got " + finalState.wireName());
        }
        if (!reply.kind().replayed()) {
            throw new IllegalArgumentException("notices and blocks are sent best-effort and never written to the outbox (SPEC OUT-2, OUT-12)");
        }
        return db.write("completeTurnWithReply", tx -> {
            long now = clock.millis();
            if (!InboxRows.finish(tx, inboxId, finalState, now)) {
                LOG.debug("inbox record {} already has a final state; turn and reply not recorded again", inboxId);
                return OutboxRows.ofTurn(tx, inboxId, reply.kind());
            }
            long sessionId = SessionRows.touch(tx, key, now);
            if (assistantContent != null) {
                TranscriptRows.append(tx, sessionId, Role.ASSISTANT, assistantContent, inboxId, now);
            }
            return Optional.of(OutboxRows.insert(tx, inboxId, reply, now));
        });
    }

    @Override
    public OutboxEntry enqueueOutbox(long turnId, OutboundDraft draft) {
        Objects.requireNonNull(draft, "draft");
        if (!draft.kind().replayed()) {
            throw new IllegalArgumentException("notices and blocks are sent best-effort and never written to the outbox (SPEC OUT-2, OUT-12)");
        }
        if (draft.sendKey().isEmpty()) throw new IllegalArgumentException("an outbox entry outside a turn's end needs a send key");
        return db.write("enqueueOutbox", tx -> OutboxRows.insert(tx, turnId, draft, clock.millis()));
    }

    @Override
    public boolean claimOutbox(long entryId) {
        return db.write("claimOutbox", tx -> OutboxRows.claim(tx, entryId, clock.millis()));
    }

    @Override
    public void updateOutbox(long entryId, OutboxUpdate update) {
        Objects.requireNonNull(update, "update");
        db.write("updateOutbox", tx -> {
            OutboxRows.update(tx, entryId, update, clock.millis());
            return null;
        });
    }

    @Override
    public Optional<OutboxEntry> outboxEntry(long entryId) {
        return db.read("outboxEntry", tx -> OutboxRows.byId(tx, entryId));
    }

    @Override
    public List<OutboxEntry> outboxDue(Instant now, int limit) {
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        return db.read("outboxDue", tx -> OutboxRows.due(tx, now.toEpochMilli(), limit));
    }

    @Override
    public List<MessageReceipt> replyReceipts(long turnId) {
        return db.read("replyReceipts", tx -> OutboxRows.replyReceipts(tx, turnId));
    }

    @Override
    public List<OutboxEntry> outboxByState(OutboxState... states) {
        List<OutboxState> wanted = List.of(Objects.requireNonNull(states, "states")).stream().distinct().toList();
        return db.read("outboxByState", tx -> OutboxRows.byState(tx, wanted));
    }

    @Override
    public Map<OutboxState, Long> outboxCounts() {
        return db.read("outboxCounts", OutboxRows::counts);
    }

    @Override
    public void close() {
        db.close();
    }
}
