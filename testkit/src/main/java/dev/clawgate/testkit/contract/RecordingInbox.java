package dev.clawgate.testkit.contract;

import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.model.InboundMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An inbox for listener proofs: records each message a channel hands over, deduplicated by channel, account, chat and
 * platform message id as the real inbox does (SPEC IN-1), and counts every hand-over, so a proof sees both what was
 * kept and what came twice.
 */
public final class RecordingInbox implements InboundSink {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, InboundMessage> kept = new LinkedHashMap<>();
    private final List<InboundMessage> handedOver = new ArrayList<>();
    private final AtomicLong ids = new AtomicLong();

    @Override
    public Acceptance accept(InboundMessage message) {
        lock.lock();
        try {
            handedOver.add(message);
            // a message without a platform id is not deduplicated (SPEC IN-1)
            String key = message.id() == null
                    ? "no-id-" + ids.get()
                    : message.channel() + "|" + message.account() + "|" + message.replyTarget() + "|" + message.id();
            if (kept.putIfAbsent(key, message) != null) return Acceptance.DUPLICATE;
            return Acceptance.recorded(ids.incrementAndGet());
        } finally {
            lock.unlock();
        }
    }

    /** The messages recorded, each once, in order. */
    public List<InboundMessage> messages() {
        lock.lock();
        try {
            return List.copyOf(kept.values());
        } finally {
            lock.unlock();
        }
    }

    /** How many times the channel handed a message over, duplicates included. */
    public int handOvers() {
        lock.lock();
        try {
            return handedOver.size();
        } finally {
            lock.unlock();
        }
    }

    /** The texts recorded, each once, in order. */
    public List<String> texts() {
        return messages().stream().map(InboundMessage::text).toList();
    }
}
