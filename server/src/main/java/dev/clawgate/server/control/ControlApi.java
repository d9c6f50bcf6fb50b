package dev.clawgate.server.control;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;

/**
 * The control API's answers (SPEC OP-3), as JSON, independent of HTTP: {@code http.ControlRoutes} maps each route to
 * one method. A request that cannot be answered throws {@link ControlException} with its status.
 */
public final class ControlApi implements AutoCloseable {
    private final ChannelWatch watch;
    private final StatusView status;
    private final SessionsView sessions;
    private final OutboxView outbox;
    private final PairingView pairing;
    private final MemoryView memory;
    private final TurnsView turns;

    public ControlApi(ControlSources sources, Clock clock) {
        this.watch = new ChannelWatch(sources.channels(), sources.config(), clock);
        this.turns = new TurnsView(sources.store());
        this.status = new StatusView(sources, watch, turns, clock);
        this.sessions = new SessionsView(sources.store());
        this.outbox = new OutboxView(sources.store(), clock);
        this.pairing = new PairingView(sources.store(), clock);
        this.memory = new MemoryView(
                sources.store(), sessions, () -> sources.config().get().memory().minRelevance());
    }

    public ObjectNode status() {
        return status.status();
    }

    public ObjectNode channels() {
        return status.channels();
    }

    public ObjectNode sessions(String q, int limit) {
        return sessions.list(q, limit);
    }

    public ObjectNode transcript(String sessionId, int limit) {
        return sessions.transcript(sessionId, limit);
    }

    public ObjectNode turns(String session, String since, String inbox, int limit) {
        return turns.list(session, since, inbox, limit);
    }

    public ObjectNode turn(String id) {
        return turns.turn(id);
    }

    public ObjectNode outbox(String states) {
        return outbox.list(states);
    }

    public ObjectNode resend(String entryId) {
        return outbox.resend(entryId);
    }

    public ObjectNode pairing(boolean all) {
        return pairing.list(all);
    }

    public ObjectNode approve(String code) {
        return pairing.approve(code);
    }

    public ObjectNode reject(String code) {
        return pairing.reject(code);
    }

    public ObjectNode memorySearch(String q, String scope, int limit) {
        return memory.search(q, scope, limit);
    }

    @Override
    public void close() {
        watch.close();
    }
}
