package dev.clawgate.core.run;

import dev.clawgate.core.store.InboxRecord;
import java.time.Instant;
import java.util.List;

/**
 * One active run: the records it answers and the token that cancels it (ARCHITECTURE: threads and cancellation). A
 * later stage never calls back an earlier one: it cancels through this. A run usually answers one record; a batch
 * (interrupt, collect, debounce) answers several, the last of which is the current message and gives the turn id.
 */
public final class RunHandle {
    /** Cancellation reasons the turn pipeline treats specially. */
    public static final String REASON_STOP = "stopped by /stop";

    public static final String REASON_INTERRUPT = "interrupted by a newer message";
    public static final String REASON_TIMEOUT = "timed out";
    public static final String REASON_SHUTDOWN = "gateway shutting down";

    private final List<InboxRecord> records;
    private final CancelToken cancel = new CancelToken();
    private final SteerBox steer = new SteerBox();
    private final List<String> droppedSummaries;
    private final Instant startedAt;
    private volatile RunningTool tool;

    /** A tool call the run is waiting on (SPEC RT-1 {@code /status}, RP-5): its name and when it started. */
    public record RunningTool(String name, Instant since) {}

    public RunHandle(List<InboxRecord> records, Instant startedAt) {
        this(records, startedAt, List.of());
    }

    /** @param droppedSummaries one line per message a full queue dropped before this run (SPEC DI-3 drop=summarize) */
    public RunHandle(List<InboxRecord> records, Instant startedAt, List<String> droppedSummaries) {
        if (records.isEmpty()) throw new IllegalArgumentException("a run needs a record");
        this.records = List.copyOf(records);
        this.startedAt = startedAt;
        this.droppedSummaries = List.copyOf(droppedSummaries);
    }

    /** The current (last) record: its id is the turn id (SPEC OUT-12). */
    public InboxRecord record() {
        return records.get(records.size() - 1);
    }

    /** Every record this run answers, oldest first. */
    public List<InboxRecord> records() {
        return records;
    }

    public CancelToken cancel() {
        return cancel;
    }

    /** Messages steered into this run while it works (SPEC DI-3). */
    public SteerBox steer() {
        return steer;
    }

    public List<String> droppedSummaries() {
        return droppedSummaries;
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** The run started {@code name} at {@code at}; it runs until {@link #toolEnded}. */
    public void toolStarted(String name, Instant at) {
        tool = new RunningTool(name, at);
    }

    public void toolEnded() {
        tool = null;
    }

    /** The tool the run waits on now, if any. */
    public java.util.Optional<RunningTool> runningTool() {
        return java.util.Optional.ofNullable(tool);
    }
}
