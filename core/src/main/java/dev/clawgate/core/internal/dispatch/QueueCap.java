package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.InboxRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The cap on a session's waiting messages and its drop policy (SPEC DI-3): {@code old} drops the oldest waiting,
 * {@code summarize} does too and keeps a line about each for the next run, {@code new} refuses the newest. Pure: it
 * changes the lane and says what left it.
 */
final class QueueCap {
    /** One record the cap took out of the lane, with the reason its inbox row records. */
    record Drop(InboxRecord record, String reason) {}

    /**
     * What enforcing the cap did.
     *
     * @param newestRefused whether the newest message itself was refused (drop=new); then {@code drops} holds just it
     */
    record Overflow(List<Drop> drops, boolean newestRefused) {
        static final Overflow NONE = new Overflow(List.of(), false);

        List<InboxRecord> records() {
            return drops.stream().map(Drop::record).toList();
        }
    }

    private QueueCap() {}

    /**
     * Takes out of {@code lane} what its waiting messages exceed the cap by, {@code newest} being the message just
     * queued.
     */
    static Overflow enforce(SessionLane lane, QueuePolicy qp, InboxRecord newest) {
        if (lane.queuedRecords() <= qp.cap()) return Overflow.NONE;
        if (qp.drop() == DropPolicy.NEW) {
            lane.remove(newest);
            return new Overflow(List.of(new Drop(newest, "queue full (cap " + qp.cap() + "); newest refused")), true);
        }
        List<Drop> drops = new ArrayList<>();
        while (lane.queuedRecords() > qp.cap()) {
            InboxRecord oldest = lane.removeOldest();
            String summary = summary(oldest.message());
            // the summaries a run is given are bounded like the queue itself
            if (qp.drop() == DropPolicy.SUMMARIZE && lane.dropped.size() < Math.max(qp.cap(), 1))
                lane.dropped.add(summary);
            drops.add(new Drop(oldest, "queue full (cap " + qp.cap() + "): " + summary));
        }
        return new Overflow(drops, false);
    }

    /** What the sender of a refused message is told. */
    static String refusal(QueuePolicy qp) {
        return "⚠️ " + qp.cap()
                + " messages are already waiting, so this one was not queued. Please send it again later.";
    }

    /** One line about a dropped message: who sent it and the start of its text. */
    static String summary(InboundMessage m) {
        String who = m.senderName() != null ? m.senderName() : m.sender();
        String text = m.text().replaceAll("\\s+", " ").trim();
        if (text.length() > 80) text = text.substring(0, 80) + "…";
        if (text.isEmpty() && !m.attachments().isEmpty())
            text = "[" + m.attachments().size() + " attachment(s)]";
        return who + ": " + text;
    }
}
