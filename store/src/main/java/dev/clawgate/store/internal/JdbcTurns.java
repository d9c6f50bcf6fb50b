package dev.clawgate.store.internal;

import dev.clawgate.core.inspect.PhaseJson;
import dev.clawgate.core.inspect.TurnBook;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The {@link TurnBook} on either SQL dialect (SPEC OP-8); the SQL lives in {@link TurnRows}. */
final class JdbcTurns implements TurnBook {

    private final Database db;

    JdbcTurns(Database db) {
        this.db = db;
    }

    @Override
    public long record(TurnTrace trace) {
        Objects.requireNonNull(trace, "trace");
        String phases = PhaseJson.write(trace.phases());
        return db.write("recordTurn", tx -> TurnRows.insert(tx, trace, phases));
    }

    @Override
    public int recordAll(List<TurnTrace> traces) {
        List<String> phases =
                traces.stream().map(t -> PhaseJson.write(t.phases())).toList();
        return db.write("recordTurns", tx -> {
            for (int i = 0; i < traces.size(); i++) TurnRows.insert(tx, traces.get(i), phases.get(i));
            return traces.size();
        });
    }

    @Override
    public List<TurnSummary> list(String session, Instant since, int limit) {
        int max = Math.clamp(limit, 1, MAX_LIST);
        long from = since == null ? Long.MIN_VALUE : since.toEpochMilli();
        return db.read("listTurns", tx -> TurnRows.list(tx, session, from, max));
    }

    @Override
    public Optional<TurnTrace> find(long turnId) {
        return db.read("findTurn", tx -> TurnRows.find(tx, turnId));
    }

    @Override
    public List<TurnSummary> findByInbox(long inboxId) {
        return db.read("turnsOfInbox", tx -> TurnRows.byInbox(tx, inboxId));
    }

    @Override
    public int prune(Instant before) {
        long at = Objects.requireNonNull(before, "before").toEpochMilli();
        return db.write("pruneTurns", tx -> TurnRows.prune(tx, at));
    }
}
