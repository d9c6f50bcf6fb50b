package dev.clawgate.core.testing;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxBook;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.PairingBook;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptBook;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.core.store.UserMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A test double of the Store SPI for core's unit tests (core knows no database). It keeps the same observable contract
 * as the JDBC store: states, attempts, idempotent user messages, and a log of every state change so tests can assert
 * the order of transitions.
 */
public final class InMemoryStore implements Store {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, InboxRecord> inbox = new LinkedHashMap<>();
    private final Map<String, Instant> dedupe = new HashMap<>();
    private final Map<SessionKey, List<TranscriptEntry>> transcripts = new HashMap<>();
    private final Map<SessionKey, Map<String, String>> settings = new HashMap<>();
    private final List<String> transitions = new ArrayList<>();
    private final Map<String, Pairing> pairingsByCode = new LinkedHashMap<>();
    private final Set<List<String>> pairedSenders = new HashSet<>();
    private final Clock clock;
    private final InMemoryMemory memory;
    private long nextId = 1;
    private long nextEntry = 1;
    private final Map<Long, OutboxEntry> outbox = new LinkedHashMap<>();
    private long nextOutbox = 1;
    private final Map<Long, List<dev.clawgate.core.outbound.MessageReceipt>> replyReceipts = new HashMap<>();
    private final Inbox inboxBook = new Inbox();
    private final Transcripts transcriptBook = new Transcripts();
    private final Outbox outboxBook = new Outbox();
    private final Pairings pairingBook = new Pairings();
    /** Every update, in order: what the outbox told the store (tests read state histories from it). */
    public final List<OutboxUpdate> outboxUpdates = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** When set, completeTurnWithReply throws it: an outbox that cannot be written. */
    public volatile RuntimeException failOutboxWrites;

    public InMemoryStore(Clock clock) {
        this.clock = clock;
        this.memory = new InMemoryMemory(clock);
    }

    public InMemoryStore() {
        this(Clock.systemUTC());
    }

    @Override
    public InboxBook inbox() {
        return inboxBook;
    }

    @Override
    public TranscriptBook transcripts() {
        return transcriptBook;
    }

    @Override
    public OutboxBook outbox() {
        return outboxBook;
    }

    @Override
    public PairingBook pairing() {
        return pairingBook;
    }

    private final class Inbox implements InboxBook {
        @Override
        public Optional<InboxRecord> record(
                InboundMessage message, SessionKey session, String dedupeKey, Duration ttl) {
            lock.lock();
            try {
                Instant now = clock.instant();
                if (dedupeKey != null) {
                    Instant seen = dedupe.get(dedupeKey);
                    if (seen != null && seen.isAfter(now.minus(ttl))) return Optional.empty();
                    dedupe.put(dedupeKey, now);
                }
                InboxRecord r = new InboxRecord(nextId++, message, session, InboxState.RECEIVED, 0, now);
                inbox.put(r.id(), r);
                return Optional.of(r);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void mark(long id, InboxState state, String detail) {
            lock.lock();
            try {
                InboxRecord r = inbox.get(id);
                if (r == null) throw new IllegalArgumentException("no inbox record " + id);
                int attempts = r.attempts() + (state == InboxState.DISPATCHED ? 1 : 0);
                inbox.put(id, new InboxRecord(id, r.message(), r.session(), state, attempts, r.recordedAt()));
                transitions.add(id + ":" + state.wireName());
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Optional<InboxRecord> find(long id) {
            lock.lock();
            try {
                return Optional.ofNullable(inbox.get(id));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<InboxRecord> unfinished() {
            lock.lock();
            try {
                return inbox.values().stream()
                        .filter(r -> !r.state().isFinal() && r.state() != InboxState.BUFFERED)
                        .toList();
            } finally {
                lock.unlock();
            }
        }

        private final List<dev.clawgate.core.store.UnreadableInbound> unreadable = new ArrayList<>();

        @Override
        public boolean recordUnreadable(dev.clawgate.core.store.UnreadableInbound u) {
            lock.lock();
            try {
                boolean seen = unreadable.stream()
                        .anyMatch(x -> x.channel().equals(u.channel())
                                && x.account().equals(u.account())
                                && x.platformRef().equals(u.platformRef()));
                if (seen) return false;
                unreadable.add(new dev.clawgate.core.store.UnreadableInbound(
                        unreadable.size() + 1,
                        u.channel(),
                        u.account(),
                        u.platformRef(),
                        u.reason(),
                        u.raw(),
                        u.rawLength(),
                        clock.instant()));
                while (unreadable.size() > UNREADABLE_KEPT) unreadable.removeFirst();
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<dev.clawgate.core.store.UnreadableInbound> unreadable(int limit) {
            lock.lock();
            try {
                return unreadable.reversed().stream().limit(limit).toList();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Map<InboxState, Long> counts() {
            lock.lock();
            try {
                Map<InboxState, Long> m = new EnumMap<>(InboxState.class);
                for (InboxRecord r : inbox.values()) m.merge(r.state(), 1L, Long::sum);
                return m;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<InboxRecord> buffered(SessionKey session, int limit) {
            if (limit < 0) throw new IllegalArgumentException("limit must not be negative, got " + limit);
            lock.lock();
            try {
                // ids grow with insertion order, so the map's order is oldest first
                List<InboxRecord> buffered = inbox.values().stream()
                        .filter(r ->
                                r.state() == InboxState.BUFFERED && r.session().equals(session))
                        .toList();
                return List.copyOf(buffered.subList(Math.max(0, buffered.size() - limit), buffered.size()));
            } finally {
                lock.unlock();
            }
        }
    }

    /** Every state change, as "id:state", in order. */
    public List<String> transitions() {
        lock.lock();
        try {
            return List.copyOf(transitions);
        } finally {
            lock.unlock();
        }
    }

    private final class Transcripts implements TranscriptBook {
        @Override
        public List<TranscriptEntry> load(SessionKey session, int max) {
            lock.lock();
            try {
                List<TranscriptEntry> all = transcripts.getOrDefault(session, List.of());
                return List.copyOf(all.subList(Math.max(0, all.size() - max), all.size()));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void appendUserMessage(SessionKey session, long inboxId, String content) {
            lock.lock();
            try {
                List<TranscriptEntry> t = transcripts.computeIfAbsent(session, k -> new ArrayList<>());
                boolean present = t.stream()
                        .anyMatch(e ->
                                e.role() == Role.USER && Long.valueOf(inboxId).equals(e.inboxId()));
                if (!present) t.add(new TranscriptEntry(nextEntry++, Role.USER, content, inboxId, clock.instant()));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void dispatchWithUserMessages(SessionKey session, List<UserMessage> messages) {
            lock.lock();
            try {
                for (UserMessage m : messages) {
                    if (!inbox.get(m.inboxId()).state().isFinal())
                        inboxBook.mark(m.inboxId(), InboxState.DISPATCHED, null);
                    appendUserMessage(session, m.inboxId(), m.content());
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void removeUserMessage(SessionKey session, long inboxId) {
            lock.lock();
            try {
                transcripts
                        .getOrDefault(session, new ArrayList<>())
                        .removeIf(e ->
                                e.role() == Role.USER && Long.valueOf(inboxId).equals(e.inboxId()));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void completeTurn(SessionKey session, long inboxId, String assistant, InboxState finalState) {
            lock.lock();
            try {
                if (assistant != null) {
                    transcripts
                            .computeIfAbsent(session, k -> new ArrayList<>())
                            .add(new TranscriptEntry(nextEntry++, Role.ASSISTANT, assistant, inboxId, clock.instant()));
                }
                inboxBook.mark(inboxId, finalState, null);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void clear(SessionKey session) {
            lock.lock();
            try {
                transcripts.remove(session);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void replace(SessionKey session, List<ChatMessage> messages) {
            lock.lock();
            try {
                List<TranscriptEntry> t = new ArrayList<>();
                for (ChatMessage m : messages)
                    t.add(new TranscriptEntry(nextEntry++, m.role(), m.content(), null, clock.instant()));
                transcripts.put(session, t);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Optional<String> setting(SessionKey session, String name) {
            lock.lock();
            try {
                return Optional.ofNullable(
                        settings.getOrDefault(session, Map.of()).get(name));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void putSetting(SessionKey session, String name, String value) {
            lock.lock();
            try {
                Map<String, String> m = settings.computeIfAbsent(session, k -> new HashMap<>());
                if (value == null) m.remove(name);
                else m.put(name, value);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<SessionSummary> sessions() {
            lock.lock();
            try {
                return transcripts.entrySet().stream()
                        .map(e -> new SessionSummary(e.getKey(), e.getValue().size(), clock.instant()))
                        .toList();
            } finally {
                lock.unlock();
            }
        }
    }

    private final class Pairings implements PairingBook {

        @Override
        public Optional<Pairing> pending(String channel, String account, String sender, Instant now) {
            lock.lock();
            try {
                return pairingsByCode.values().stream()
                        .filter(p -> p.channel().equals(channel)
                                && p.account().equals(account)
                                && p.sender().equals(sender))
                        .filter(p -> Pairing.statusAt(p.status(), p.expiresAt(), now) == Pairing.Status.PENDING)
                        .findFirst();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Pairing create(
                String channel, String account, String sender, String code, Instant now, Instant expiresAt) {
            lock.lock();
            try {
                if (!expiresAt.isAfter(now))
                    throw new IllegalArgumentException("a pairing must expire after it is created");
                if (Pairing.normaliseCode(code).isEmpty())
                    throw new IllegalArgumentException("a pairing code must not be blank");
                Optional<Pairing> existing = pending(channel, account, sender, now);
                if (existing.isPresent()) return existing.get();
                String key = Pairing.normaliseCode(code);
                if (pairingsByCode.containsKey(key)) throw new IllegalArgumentException("pairing code already in use");
                Pairing p = new Pairing(key, channel, account, sender, Pairing.Status.PENDING, now, expiresAt);
                pairingsByCode.put(key, p);
                return p;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int pendingCount(String channel, String account, Instant now) {
            lock.lock();
            try {
                return (int) pairingsByCode.values().stream()
                        .filter(p -> p.channel().equals(channel) && p.account().equals(account))
                        .filter(p -> Pairing.statusAt(p.status(), p.expiresAt(), now) == Pairing.Status.PENDING)
                        .count();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<Pairing> list(boolean includeExpired) {
            lock.lock();
            try {
                Instant now = clock.instant();
                return pairingsByCode.values().stream()
                        .map(p -> new Pairing(
                                p.code(),
                                p.channel(),
                                p.account(),
                                p.sender(),
                                Pairing.statusAt(p.status(), p.expiresAt(), now),
                                p.createdAt(),
                                p.expiresAt()))
                        .filter(p -> includeExpired || p.status() == Pairing.Status.PENDING)
                        .toList();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Optional<Pairing> approve(String code, Instant now) {
            return decide(code, now, Pairing.Status.APPROVED);
        }

        @Override
        public Optional<Pairing> reject(String code) {
            return decide(code, clock.instant(), Pairing.Status.REJECTED);
        }

        private Optional<Pairing> decide(String code, Instant now, Pairing.Status outcome) {
            lock.lock();
            try {
                String key = Pairing.normaliseCode(code);
                Pairing p = pairingsByCode.get(key);
                if (p == null || Pairing.statusAt(p.status(), p.expiresAt(), now) != Pairing.Status.PENDING)
                    return Optional.empty();
                Pairing decided =
                        new Pairing(key, p.channel(), p.account(), p.sender(), outcome, p.createdAt(), p.expiresAt());
                pairingsByCode.put(key, decided);
                if (outcome == Pairing.Status.APPROVED)
                    pairedSenders.add(List.of(p.channel(), p.account(), p.sender()));
                return Optional.of(decided);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean isApproved(String channel, String account, String sender) {
            lock.lock();
            try {
                return pairedSenders.contains(List.of(channel, account, sender));
            } finally {
                lock.unlock();
            }
        }
    }

    // --- outbox (SPEC OUT-5..OUT-7): same contract as the JDBC store
    private final class Outbox implements OutboxBook {

        @Override
        public Optional<OutboxEntry> completeTurnWithReply(
                SessionKey session, long inboxId, String assistant, InboxState finalState, OutboundDraft reply) {
            if (!finalState.isFinal())
                throw new IllegalArgumentException("a turn must end in a final state, got " + finalState);
            if (reply.kind() == dev.clawgate.core.outbound.OutboundMessage.Kind.NOTICE) {
                throw new IllegalArgumentException("notices are never written to the outbox");
            }
            RuntimeException down = failOutboxWrites;
            if (down != null) throw down;
            lock.lock();
            try {
                InboxRecord r = inbox.get(inboxId);
                if (r == null) throw new IllegalArgumentException("no inbox record " + inboxId);
                if (r.state().isFinal()) {
                    return outbox.values().stream()
                            .filter(e -> e.turnId() == inboxId
                                    && e.draft().kind() == reply.kind()
                                    && e.draft().sendKey().isEmpty())
                            .findFirst();
                }
                transcriptBook.completeTurn(session, inboxId, assistant, finalState);
                Instant now = clock.instant();
                OutboxEntry e = new OutboxEntry(
                        nextOutbox++, inboxId, reply, OutboxState.PENDING, 0, now, now, List.of(), now, null);
                outbox.put(e.id(), e);
                return Optional.of(e);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public OutboxEntry enqueue(long turnId, OutboundDraft draft) {
            if (draft.kind() == dev.clawgate.core.outbound.OutboundMessage.Kind.NOTICE) {
                throw new IllegalArgumentException("notices are never written to the outbox");
            }
            if (draft.sendKey().isEmpty())
                throw new IllegalArgumentException("an outbox entry outside a turn's end needs a send key");
            lock.lock();
            try {
                Optional<OutboxEntry> existing = outbox.values().stream()
                        .filter(e -> e.turnId() == turnId
                                && e.draft().kind() == draft.kind()
                                && e.draft().sendKey().equals(draft.sendKey()))
                        .findFirst();
                if (existing.isPresent()) return existing.get();
                Instant now = clock.instant();
                OutboxEntry e = new OutboxEntry(
                        nextOutbox++, turnId, draft, OutboxState.PENDING, 0, now, now, List.of(), now, null);
                outbox.put(e.id(), e);
                return e;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean claim(long entryId) {
            lock.lock();
            try {
                OutboxEntry e = requireOutbox(entryId);
                if (e.state() != OutboxState.PENDING) return false;
                outbox.put(entryId, e.with(OutboxUpdate.of(e, OutboxState.SENDING, e.detail()), clock.instant()));
                return true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void update(long entryId, OutboxUpdate update) {
            lock.lock();
            try {
                OutboxEntry e = requireOutbox(entryId);
                OutboxEntry updated = e.with(update, clock.instant());
                outbox.put(entryId, updated);
                outboxUpdates.add(update);
                if (!update.receipts().isEmpty()) replyReceipts.put(e.turnId(), update.receipts());
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<dev.clawgate.core.outbound.MessageReceipt> replyReceipts(long turnId) {
            lock.lock();
            try {
                return replyReceipts.getOrDefault(turnId, List.of());
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Optional<OutboxEntry> entry(long entryId) {
            lock.lock();
            try {
                return Optional.ofNullable(outbox.get(entryId));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<OutboxEntry> due(Instant now, int limit) {
            lock.lock();
            try {
                return outbox.values().stream()
                        .filter(e -> e.state() == OutboxState.PENDING
                                && !e.nextAttemptAt().isAfter(now))
                        .limit(limit)
                        .toList();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<OutboxEntry> byState(OutboxState... states) {
            Set<OutboxState> wanted = Set.copyOf(List.of(states));
            lock.lock();
            try {
                return outbox.values().stream()
                        .filter(e -> wanted.contains(e.state()))
                        .toList();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public Map<OutboxState, Long> counts() {
            Map<OutboxState, Long> counts = new EnumMap<>(OutboxState.class);
            for (OutboxState st : OutboxState.values()) counts.put(st, 0L);
            lock.lock();
            try {
                for (OutboxEntry e : outbox.values()) counts.merge(e.state(), 1L, Long::sum);
                return counts;
            } finally {
                lock.unlock();
            }
        }

        private OutboxEntry requireOutbox(long entryId) {
            OutboxEntry e = outbox.get(entryId);
            if (e == null) throw new IllegalArgumentException("no outbox entry " + entryId);
            return e;
        }
    }

    @Override
    public InMemoryMemory memory() {
        return memory;
    }

    private final InMemoryCronBook cron = new InMemoryCronBook();

    @Override
    public InMemoryCronBook cron() {
        return cron;
    }

    private final InMemoryTurnBook turns = new InMemoryTurnBook();

    @Override
    public InMemoryTurnBook turns() {
        return turns;
    }

    @Override
    public Optional<InboxRecord> claimFireAndRecord(
            dev.clawgate.core.cron.CronFire fire, SessionKey session, String dedupeKey, Duration ttl) {
        lock.lock();
        try {
            // under the store's lock nothing can fail between the two, as in the one SQL transaction
            if (!cron.claimFire(fire.jobId(), fire.fireAt(), fire.next())) return Optional.empty();
            return inboxBook.record(fire.message(), session, dedupeKey, ttl);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean healthy() {
        return true;
    }

    @Override
    public void close() {}
}
