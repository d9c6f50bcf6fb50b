package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves what a sender's events look like now. "Event replacements", validity: a replacement counts only if it is in
 * the same room, from the same sender, of the same type, neither is a state event, the original is not itself a
 * replacement, and it carries {@code m.new_content}; the latest valid one wins; replacements of a redacted event are
 * ignored.
 */
final class SentEvents {
    private SentEvents() {}

    static List<SentEvent> by(Homeserver hs, String sender, String roomId) {
        List<SentEvent> out = new ArrayList<>();
        for (Room room : hs.rooms.values()) {
            if (roomId != null && !room.id.equals(roomId)) continue;
            for (StoredEvent e : room.events) if (e.sender().equals(sender) && !e.isState()) out.add(resolve(room, e));
        }
        out.sort(java.util.Comparator.comparingLong(
                s -> hs.eventsById.get(s.eventId()).position()));
        return out;
    }

    static SentEvent resolve(Room room, StoredEvent original) {
        JsonNode current = original.content();
        int edits = 0;
        if (!original.redacted() && !"m.replace".equals(original.relType())) {
            for (StoredEvent r : room.events) {
                if (r.position() <= original.position() || !"m.replace".equals(r.relType())) continue;
                if (!original.eventId().equals(r.relatedEventId())
                        || !r.sender().equals(original.sender())) continue;
                if (!r.type().equals(original.type())
                        || r.isState()
                        || !r.content().path("m.new_content").isObject()) continue;
                current = r.content().path("m.new_content");
                edits++;
            }
        }
        return new SentEvent(
                original.eventId(),
                original.roomId(),
                original.type(),
                original.txnId(),
                original.deviceId(),
                original.content().deepCopy(),
                current.deepCopy(),
                edits,
                original.redacted());
    }
}
