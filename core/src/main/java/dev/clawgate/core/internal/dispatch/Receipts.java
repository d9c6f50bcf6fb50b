package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.run.ReceiptListener;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receipt of every admitted record (SPEC RP-5), from shown to settled: the listener shows it when the dispatcher
 * admits the record, and settles it with the record's final state as the inbox records it (IN-4), read back from the
 * store, so whoever wrote the state (the dispatcher, the turn, the outbox) the receipt follows it. A record merged into
 * a turn (debounce, collect, steer) takes that turn's state when the turn ends; a record without a final state (a run
 * cut by shutdown runs again after the restart) is left as it is.
 */
final class Receipts {
    private static final Logger log = LoggerFactory.getLogger(Receipts.class);

    private final Store store;
    private final ReceiptListener listener;

    Receipts(Store store, ReceiptListener listener) {
        this.store = store;
        this.listener = listener;
    }

    /** {@code record} was admitted: its receipt is shown. */
    void shown(InboxRecord record) {
        try {
            listener.received(record);
        } catch (RuntimeException e) {
            log.warn("receipt of inbox {} not shown: {}", record.id(), e.toString());
        }
    }

    /**
     * Records that left their session without a turn (cancelled, dropped by the queue, expired): each settles with its
     * own state.
     */
    void settle(List<InboxRecord> records) {
        for (InboxRecord r : records) {
            InboxState state = stateOf(r);
            if (state != null && state.isFinal() && state != InboxState.MERGED) tell(r, state);
        }
    }

    /**
     * The run of {@code handle} ended: its records and those steered into it settle. The turn's state is its lead
     * record's, the last one neither merged nor dropped by the inbound hook.
     */
    void settleRun(RunHandle handle) {
        Map<InboxRecord, InboxState> states = new LinkedHashMap<>();
        List<InboxRecord> all = new ArrayList<>(handle.records());
        all.addAll(handle.steer().taken());
        for (InboxRecord r : all) states.put(r, stateOf(r));
        InboxState turn = null;
        for (InboxRecord r : handle.records().reversed()) {
            InboxState s = states.get(r);
            if (s != InboxState.MERGED && s != InboxState.DROPPED_BY_HOOK) {
                turn = s;
                break;
            }
        }
        for (Map.Entry<InboxRecord, InboxState> e : states.entrySet()) {
            InboxState s = e.getValue() == InboxState.MERGED ? turn : e.getValue();
            if (s != null && s.isFinal() && s != InboxState.MERGED) tell(e.getKey(), s);
        }
    }

    /** The record's state as the store has it; null when it cannot be read (the receipt is left, not guessed). */
    private InboxState stateOf(InboxRecord r) {
        try {
            return store.inbox().state(r.id()).orElse(null);
        } catch (RuntimeException e) {
            log.warn("receipt of inbox {} not settled: its state could not be read: {}", r.id(), e.toString());
            return null;
        }
    }

    private void tell(InboxRecord r, InboxState state) {
        try {
            listener.settled(r, state);
        } catch (RuntimeException e) {
            log.warn("receipt of inbox {} not settled: {}", r.id(), e.toString());
        }
    }
}
