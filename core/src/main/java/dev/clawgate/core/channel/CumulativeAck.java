package dev.clawgate.core.channel;

import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * A cumulative ack such as Telegram's {@code getUpdates} offset (SPEC IN-3): it advances to 1 + the highest sequence
 * number of the contiguous prefix of received messages that has reached the policy's stage. Later stages are read from
 * the store (ARCHITECTURE: a later stage signals an earlier one only through the store), so the channel never hears
 * from the pipeline directly. Bounded: acknowledged entries are forgotten.
 */
public final class CumulativeAck {
    private static final long NOT_RECORDED = -2;
    private static final long DUPLICATE = -1;

    private final AckPolicy policy;
    /** Where an inbox record stands now; read only for the later stages. */
    private final LongFunction<Optional<InboxState>> states;

    private final ReentrantLock lock = new ReentrantLock();
    /** seq → inbox id, or NOT_RECORDED while the sink has not returned, or DUPLICATE. */
    private final TreeMap<Long, Long> tracked = new TreeMap<>();

    private long offset;

    public CumulativeAck(AckPolicy policy, Store store, long startOffset) {
        this(
                policy,
                store == null ? id -> Optional.empty() : id -> store.inbox().state(id),
                startOffset);
    }

    /**
     * @param states where an inbox record stands now ({@link InboundSink#recordState}); read only for the later stages
     */
    public CumulativeAck(AckPolicy policy, LongFunction<Optional<InboxState>> states, long startOffset) {
        if (policy == AckPolicy.MANUAL) throw new IllegalArgumentException("a manual adapter acknowledges by itself");
        this.policy = policy;
        this.states = states;
        this.offset = startOffset;
    }

    public AckPolicy policy() {
        return policy;
    }

    /**
     * The platform delivered {@code seq}; it holds the offset back until it reaches the stage. Returns false when
     * {@code seq} is already acknowledged or recorded and waiting for its stage: a redelivery the channel must not hand
     * to its sink again. One the sink never returned for (it failed) is handed on again.
     */
    public boolean received(long seq) {
        lock.lock();
        try {
            if (seq < offset) return false;
            Long known = tracked.putIfAbsent(seq, NOT_RECORDED);
            return known == null || known == NOT_RECORDED;
        } finally {
            lock.unlock();
        }
    }

    /** The sink returned for {@code seq}: recorded as {@code acceptance}. A record already noted is kept. */
    public void recorded(long seq, InboundSink.Acceptance acceptance) {
        lock.lock();
        try {
            if (tracked.containsKey(seq) && tracked.get(seq) == NOT_RECORDED) {
                tracked.put(seq, acceptance.duplicate() ? DUPLICATE : acceptance.inboxId());
            }
        } finally {
            lock.unlock();
        }
    }

    /** The offset to send now: everything below it has reached the stage. Never moves back. */
    public long offset() {
        lock.lock();
        try {
            boolean decided = false;
            while (!tracked.isEmpty()) {
                Map.Entry<Long, Long> first = tracked.firstEntry();
                if (!reached(first.getValue())) break;
                decided |= first.getValue() != DUPLICATE;
                offset = Math.max(offset, first.getKey() + 1);
                tracked.pollFirstEntry();
            }
            // a crash test halts here: a recorded message's reply decided, the platform not yet told (SPEC IN-3)
            if (decided && policy == AckPolicy.AFTER_DURABLE_SEND) Failpoints.hit(Failpoints.OUTBOX_BEFORE_ACK);
            return offset;
        } finally {
            lock.unlock();
        }
    }

    /** Messages received but not yet acknowledged. */
    public int pending() {
        lock.lock();
        try {
            return tracked.size();
        } finally {
            lock.unlock();
        }
    }

    private boolean reached(long inboxId) {
        if (inboxId == NOT_RECORDED) return false;
        if (inboxId == DUPLICATE || policy == AckPolicy.AFTER_RECEIVE_RECORD) return true;
        InboxState state = states.apply(inboxId).orElse(InboxState.RECEIVED);
        return switch (policy) {
            case AFTER_AGENT_DISPATCH -> state != InboxState.RECEIVED;
            case AFTER_DURABLE_SEND -> state.isFinal() || state == InboxState.BUFFERED;
            default -> true;
        };
    }
}
