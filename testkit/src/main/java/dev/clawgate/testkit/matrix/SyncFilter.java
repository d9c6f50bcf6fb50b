package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A filter as {@code POST /user/{userId}/filter} takes it and {@code /sync?filter=} applies it (Client-Server API,
 * "Filtering"): {@code room.rooms}/{@code not_rooms}, {@code room.include_leave}, the {@code room.timeline},
 * {@code room.state} and {@code room.ephemeral} event filters (types, not_types, senders, not_senders, {@code limit}),
 * the top-level {@code account_data} filter and {@code event_fields}. Types may use {@code *} as a wildcard. Presence,
 * lazy loading and {@code event_format} are accepted and not applied (the fake has no presence, members are few).
 */
final class SyncFilter {
    /** Synapse's default timeline limit when a filter gives none. */
    static final int DEFAULT_TIMELINE_LIMIT = 10;

    static final SyncFilter NONE = new SyncFilter(Homeserver.JSON.createObjectNode());

    private final JsonNode root;
    final EventFilter timeline;
    final EventFilter state;
    final EventFilter ephemeral;
    final EventFilter accountData;
    final int timelineLimit;

    private SyncFilter(JsonNode root) {
        this.root = root;
        JsonNode room = root.path("room");
        this.timeline = new EventFilter(room.path("timeline"));
        this.state = new EventFilter(room.path("state"));
        this.ephemeral = new EventFilter(room.path("ephemeral"));
        this.accountData = new EventFilter(root.path("account_data"));
        this.timelineLimit = room.path("timeline").path("limit").asInt(DEFAULT_TIMELINE_LIMIT);
    }

    /** Validates a filter definition: a JSON object whose known fields have the types the spec gives. */
    static SyncFilter parse(JsonNode definition) throws MatrixError {
        if (definition == null || !definition.isObject()) throw MatrixError.notJson();
        JsonNode limit = definition.path("room").path("timeline").path("limit");
        if (!limit.isMissingNode() && (!limit.isIntegralNumber() || limit.asLong() < 1)) {
            throw MatrixError.badJson("room.timeline.limit must be an integer greater than 0");
        }
        for (String list : List.of("event_fields")) {
            JsonNode n = definition.path(list);
            if (!n.isMissingNode() && !n.isArray()) throw MatrixError.badJson(list + " must be an array of strings");
        }
        return new SyncFilter(definition);
    }

    boolean includesRoom(String roomId) {
        JsonNode room = root.path("room");
        return EventFilter.allows(room.path("rooms"), room.path("not_rooms"), roomId);
    }

    boolean includeLeave() {
        return root.path("room").path("include_leave").asBoolean(false);
    }

    /** {@code event_fields}: keeps only the listed (dot-separated) paths of each event. */
    ObjectNode project(ObjectNode event) {
        JsonNode fields = root.path("event_fields");
        if (!fields.isArray() || fields.isEmpty()) return event;
        ObjectNode out = Homeserver.JSON.createObjectNode();
        for (JsonNode f : fields) {
            String[] path = f.asText().split("(?<!\\\\)\\.");
            JsonNode value = event;
            for (String part : path) value = value.path(part.replace("\\.", "."));
            if (value.isMissingNode()) continue;
            ObjectNode target = out;
            for (int i = 0; i < path.length - 1; i++) target = target.with(path[i].replace("\\.", "."));
            target.set(path[path.length - 1].replace("\\.", "."), value);
        }
        return out;
    }

    /** One {@code EventFilter} / {@code RoomEventFilter}. */
    static final class EventFilter {
        private final JsonNode n;

        EventFilter(JsonNode n) {
            this.n = n;
        }

        boolean allows(String type, String sender) {
            return allows(n.path("types"), n.path("not_types"), type)
                    && allows(n.path("senders"), n.path("not_senders"), sender);
        }

        List<StoredEvent> apply(List<StoredEvent> events) {
            List<StoredEvent> out = new ArrayList<>();
            for (StoredEvent e : events) if (allows(e.type(), e.sender())) out.add(e);
            return out;
        }

        /** "A list of ... to include. If this list is absent then all are included"; the not_ list takes precedence. */
        static boolean allows(JsonNode include, JsonNode exclude, String value) {
            if (exclude.isArray()) for (JsonNode p : exclude) if (matches(p.asText(), value)) return false;
            if (!include.isArray()) return true;
            for (JsonNode p : include) if (matches(p.asText(), value)) return true;
            return false;
        }

        private static boolean matches(String pattern, String value) {
            if (!pattern.contains("*")) return pattern.equals(value);
            StringBuilder re = new StringBuilder();
            for (String part : pattern.split("\\*", -1)) {
                if (!re.isEmpty()) re.append(".*");
                re.append(Pattern.quote(part));
            }
            return value.matches(re.toString());
        }
    }
}
