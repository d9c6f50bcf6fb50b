package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Memory search with scores: {@code /api/memory/search} (SPEC ME-2, ME-3). Without a scope it searches the global scope
 * and the sender and session scopes of the most recent sessions, so the page finds what any conversation would recall.
 */
final class MemoryView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_RESULTS = 50;

    private final Store store;
    private final SessionsView sessions;
    private final DoubleSupplier minRelevance;

    /** @param minRelevance {@code memory.min_relevance} in force: a result below it is not put in a prompt (ME-3) */
    MemoryView(Store store, SessionsView sessions, DoubleSupplier minRelevance) {
        this.store = store;
        this.sessions = sessions;
        this.minRelevance = minRelevance;
    }

    ObjectNode search(String q, String scope, int limit) {
        if (q == null || q.isBlank()) throw ControlException.badRequest("say what to search for: ?q=words");
        List<MemoryScope> scopes = scope == null || scope.isBlank() ? knownScopes() : List.of(parse(scope));
        int max = limit <= 0 ? 20 : Math.min(limit, MAX_RESULTS);
        double min = minRelevance.getAsDouble();
        ObjectNode body = JSON.createObjectNode().put("query", q).put("min_relevance", min);
        ArrayNode out = body.putArray("results");
        for (Recalled r : store.memory().recall(q, scopes, max)) {
            out.addObject()
                    .put("key", r.entry().key())
                    .put("scope", r.entry().scope().id())
                    .put("category", r.entry().category())
                    .put("score", Math.round(r.score() * 1000) / 1000.0)
                    .put("above_min_relevance", r.score() >= min)
                    .put("content", r.entry().content())
                    .put("updated_at", r.entry().updatedAt().toString());
        }
        return body;
    }

    private List<MemoryScope> knownScopes() {
        Set<MemoryScope> scopes = new LinkedHashSet<>();
        scopes.add(MemoryScope.global());
        List<SessionSummary> recent = sessions.recent("");
        for (SessionSummary s : recent.subList(0, Math.min(recent.size(), SessionsView.MAX_SESSIONS))) {
            SessionKey k = s.key();
            if (k.sender() != null) scopes.add(MemoryScope.sender(k.channel(), k.sender()));
            scopes.add(MemoryScope.session(k));
        }
        return List.copyOf(scopes);
    }

    private static MemoryScope parse(String raw) {
        if (raw.startsWith("sender:")) {
            String[] parts = raw.split(":", 3);
            if (parts.length == 3 && !parts[1].isEmpty() && !parts[2].isEmpty())
                return MemoryScope.sender(parts[1], parts[2]);
        }
        try {
            return MemoryScope.parse(raw);
        } catch (IllegalArgumentException e) {
            throw ControlException.badRequest("'" + raw + "' is not a memory scope; use global, "
                    + "sender:<channel>:<sender>, or a scope id from a search result");
        }
    }
}
