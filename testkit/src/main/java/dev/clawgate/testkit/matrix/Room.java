package dev.clawgate.testkit.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One room: every event in stream order and the current state. Guarded by the homeserver's lock. */
final class Room {
    final String id;
    final List<StoredEvent> events = new ArrayList<>();
    final Map<String, StoredEvent> state = new LinkedHashMap<>();
    /** Power levels are not modelled; a test can take the bot's right to send away. */
    boolean sendingForbidden;

    Room(String id) {
        this.id = id;
    }

    static String stateKey(String type, String key) {
        return type + '\u0000' + key;
    }

    void add(StoredEvent e) {
        events.add(e);
        if (e.isState()) state.put(stateKey(e.type(), e.stateKey()), e);
    }

    StoredEvent state(String type, String key) {
        return state.get(stateKey(type, key));
    }

    /** {@code join}, {@code invite}, {@code leave}, {@code ban}, or null when the user never was a member. */
    String membership(String userId) {
        StoredEvent m = state("m.room.member", userId);
        return m == null ? null : m.content().path("membership").asText();
    }

    List<String> members(String membership) {
        List<String> out = new ArrayList<>();
        state.values().forEach(e -> {
            if (e.type().equals("m.room.member")
                    && membership.equals(e.content().path("membership").asText())) {
                out.add(e.stateKey());
            }
        });
        return out;
    }

    /** Client-Server API, "End-to-end encryption": a room is encrypted once it has {@code m.room.encryption} state. */
    boolean encrypted() {
        return state("m.room.encryption", "") != null;
    }

    /** Events with {@code after < position <= upTo}, in stream order. */
    List<StoredEvent> between(long after, long upTo) {
        int from = firstAfter(after);
        List<StoredEvent> out = new ArrayList<>();
        for (int i = from; i < events.size() && events.get(i).position() <= upTo; i++) out.add(events.get(i));
        return out;
    }

    /** The room state as it stood just before {@code position}: the last event of each state key before it. */
    List<StoredEvent> stateBefore(long position) {
        Map<String, StoredEvent> s = new LinkedHashMap<>();
        for (StoredEvent e : events) {
            if (e.position() >= position) break;
            if (e.isState()) s.put(stateKey(e.type(), e.stateKey()), e);
        }
        return new ArrayList<>(s.values());
    }

    /** State changes with {@code after < position < before}: the last event of each key in that gap. */
    List<StoredEvent> stateChangesBetween(long after, long before) {
        Map<String, StoredEvent> s = new LinkedHashMap<>();
        for (StoredEvent e : between(after, before - 1)) if (e.isState()) s.put(stateKey(e.type(), e.stateKey()), e);
        return new ArrayList<>(s.values());
    }

    private int firstAfter(long position) {
        int lo = 0, hi = events.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (events.get(mid).position() <= position) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
