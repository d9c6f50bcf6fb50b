package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.TranscriptEntry;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Sessions, most recent first, with search, and their transcripts: {@code /api/sessions} (SPEC OP-3, HI-2). */
final class SessionsView {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_SESSIONS = 100;
    private static final int MAX_TRANSCRIPT = 500;

    private final Store store;

    SessionsView(Store store) {
        this.store = store;
    }

    /** The sessions with messages whose key contains {@code q} (ignoring case; blank: all), most recent first. */
    ObjectNode list(String q, int limit) {
        List<SessionSummary> found = recent(q);
        ObjectNode body = JSON.createObjectNode();
        body.put("total", found.size());
        ArrayNode out = body.putArray("sessions");
        for (SessionSummary s : found.subList(0, Math.min(found.size(), clamp(limit)))) out.add(session(s));
        return body;
    }

    /** The sessions matching {@code q}, most recently active first. */
    List<SessionSummary> recent(String q) {
        String needle = q == null ? "" : q.strip().toLowerCase(Locale.ROOT);
        return store.transcripts().sessions().stream()
                // as `clawgate sessions`: a session with no messages (a refused stranger's) is not listed
                .filter(s -> s.messageCount() > 0)
                .filter(s -> needle.isEmpty() || matches(s.key(), needle))
                .sorted(Comparator.comparing(
                        SessionSummary::lastActivity, Comparator.nullsLast(Comparator.reverseOrder())))
                .toList();
    }

    ObjectNode transcript(String id, int limit) {
        SessionKey key = key(id);
        ObjectNode body = JSON.createObjectNode();
        body.set("session", keyJson(key));
        ArrayNode out = body.putArray("messages");
        int max = limit <= 0 ? MAX_TRANSCRIPT : Math.min(limit, MAX_TRANSCRIPT);
        for (TranscriptEntry e : store.transcripts().load(key, max)) {
            out.addObject()
                    .put("id", e.id())
                    .put("role", e.role().name().toLowerCase(Locale.ROOT))
                    .put("content", e.content())
                    .put("turn_id", e.inboxId())
                    .put(
                            "created_at",
                            e.createdAt() == null ? null : e.createdAt().toString());
        }
        return body;
    }

    static SessionKey key(String id) {
        try {
            return SessionIds.parse(id);
        } catch (IllegalArgumentException e) {
            throw ControlException.badRequest(e.getMessage());
        }
    }

    static ObjectNode keyJson(SessionKey k) {
        return JSON.createObjectNode()
                .put("id", SessionIds.of(k))
                .put("display", k.display())
                .put("channel", k.channel())
                .put("account", k.account())
                .put("chat_type", k.chatType().wireName())
                .put("reply_target", k.replyTarget())
                .put("thread_id", k.threadId())
                .put("sender", k.sender());
    }

    private static ObjectNode session(SessionSummary s) {
        ObjectNode n = keyJson(s.key());
        n.put("messages", s.messageCount());
        n.put(
                "last_activity",
                s.lastActivity() == null ? null : s.lastActivity().toString());
        return n;
    }

    private static boolean matches(SessionKey k, String needle) {
        return k.display().toLowerCase(Locale.ROOT).contains(needle)
                || (k.sender() != null && k.sender().toLowerCase(Locale.ROOT).contains(needle));
    }

    private static int clamp(int limit) {
        return limit <= 0 ? MAX_SESSIONS : Math.min(limit, MAX_SESSIONS);
    }
}
