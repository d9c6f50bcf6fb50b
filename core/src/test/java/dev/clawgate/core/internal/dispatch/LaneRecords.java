package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.time.Instant;
import java.util.List;

/**
 * Inbox records of one group chat for the pure lane tests: ids count up, so the order they were made is the order
 * received.
 */
final class LaneRecords {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private long nextId = 1;

    /** A message from {@code sender} in the main thread of the chat, with no scope id. */
    InboxRecord from(String sender, String text) {
        return in(sender, null, null, text);
    }

    /**
     * A message from {@code sender} in {@code thread} (null: the main one) with the interruption scope id
     * {@code scopeId}.
     */
    InboxRecord in(String sender, String thread, String scopeId, String text) {
        return record(new InboundMessage(
                null,
                "test",
                null,
                sender,
                null,
                "room",
                thread,
                scopeId,
                ChatType.GROUP,
                true,
                T0,
                text,
                List.of(),
                null));
    }

    /** A message with a display name and attachments, as a summary of a dropped message shows it. */
    InboxRecord named(String sender, String senderName, String text, int attachments) {
        List<Attachment> files = java.util.stream.IntStream.range(0, attachments)
                .mapToObj(i -> new Attachment(Attachment.Kind.FILE, "text/plain", "file-" + i))
                .toList();
        return record(new InboundMessage(
                null,
                "test",
                null,
                sender,
                senderName,
                "room",
                null,
                null,
                ChatType.GROUP,
                true,
                T0,
                text,
                files,
                null));
    }

    private InboxRecord record(InboundMessage m) {
        return new InboxRecord(nextId++, m, SessionKey.of(m), InboxState.RECEIVED, 0, T0);
    }

    /** A lane whose active run answers {@code running}. */
    static SessionLane busyWith(InboxRecord running) {
        SessionLane lane = new SessionLane(running.session());
        lane.begin(List.of(running), T0);
        return lane;
    }

    /** The texts waiting in the lane, one list per run they will make. */
    static List<List<String>> waiting(SessionLane lane) {
        return lane.queue.stream()
                .map(p -> p.records.stream().map(r -> r.message().text()).toList())
                .toList();
    }

    static List<String> texts(List<InboxRecord> records) {
        return records.stream().map(r -> r.message().text()).toList();
    }
}
