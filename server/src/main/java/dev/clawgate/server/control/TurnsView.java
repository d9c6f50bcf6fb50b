package dev.clawgate.server.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.inspect.TurnPhase;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Turns from the inspector (SPEC OP-8): {@code /api/turns} lists them newest first, {@code /api/turns/{id}} gives one
 * turn's timeline, its phases in order with their start and duration.
 */
final class TurnsView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEFAULT_LIMIT = 50;

    private final Store store;

    TurnsView(Store store) {
        this.store = store;
    }

    /**
     * @param session a session id of {@code /api/sessions}, or a key as {@code SessionKey.display()} prints it; null
     *     for all
     * @param since an ISO-8601 instant, or a number of seconds back from now; null for all
     * @param inbox only the turns of that inbox record (its run, re-runs, dropped duplicates)
     */
    ObjectNode list(String session, String since, String inbox, int limit) {
        List<TurnSummary> turns;
        if (inbox != null && !inbox.isBlank()) {
            turns = new ArrayList<>(store.turns().findByInbox(number(inbox, "inbox")));
            Collections.reverse(turns);
        } else {
            turns = store.turns().list(display(session), instant(since), limit <= 0 ? DEFAULT_LIMIT : limit);
        }
        ObjectNode body = JSON.createObjectNode();
        ArrayNode out = body.putArray("turns");
        for (TurnSummary t : turns) out.add(summary(t));
        return body;
    }

    ObjectNode turn(String rawId) {
        long id = number(rawId, "turn id");
        TurnTrace trace = store.turns().find(id).orElseThrow(() -> ControlException.notFound("there is no turn " + id));
        ObjectNode body = summary(trace.summary());
        ArrayNode phases = body.putArray("phases");
        for (TurnPhase p : trace.phases()) {
            ObjectNode n = phases.addObject()
                    .put("name", p.name())
                    .put("start_ms", millis(p.start()))
                    .put("duration_ms", millis(p.duration()));
            n.set("detail", detail(p.detail()));
        }
        body.put("prompt", trace.prompt());
        return body;
    }

    /** The mean model-call latency over the newest turns that called a model, in ms; null when none did. */
    Double modelLatencyMs(int turns) {
        long total = 0;
        int calls = 0;
        for (TurnSummary t : store.turns().list(null, null, turns)) {
            for (TurnPhase p : store.turns().find(t.id()).map(TurnTrace::phases).orElse(List.of())) {
                if (!p.name().equals("model")) continue;
                total += p.duration().toNanos();
                calls++;
            }
        }
        return calls == 0 ? null : Math.round(total / 1_000.0 / calls) / 1_000.0;
    }

    static ObjectNode summary(TurnSummary t) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", t.id())
                .put("inbox_id", t.inboxId())
                .put("session_id", SessionIds.of(t.session()))
                .put("session", t.session().display())
                .put("channel", t.channel())
                .put("account", t.account())
                .put("started_at", t.startedAt().toString())
                .put("duration_ms", millis(t.duration()))
                .put("outcome", t.outcome())
                .put("preview", t.preview());
        return n;
    }

    private static double millis(Duration d) {
        return Math.round(d.toNanos() / 1_000.0) / 1_000.0;
    }

    private static JsonNode detail(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return JSON.getNodeFactory().textNode(json);
        }
    }

    private static String display(String session) {
        if (session == null || session.isBlank()) return null;
        try {
            return SessionIds.parse(session).display();
        } catch (IllegalArgumentException notAnId) {
            return session;
        }
    }

    private static Instant instant(String since) {
        if (since == null || since.isBlank()) return null;
        String s = since.strip();
        if (s.matches("\\d+")) return Instant.now().minusSeconds(Long.parseLong(s));
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw ControlException.badRequest(
                    "'since' is an ISO-8601 instant (2026-01-31T12:00:00Z) or seconds back from now, got '" + s + "'");
        }
    }

    private static long number(String raw, String what) {
        try {
            return Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw ControlException.badRequest("a " + what + " is a number, got '" + raw + "'");
        }
    }
}
