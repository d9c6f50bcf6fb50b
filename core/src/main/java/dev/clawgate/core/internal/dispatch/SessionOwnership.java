package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.store.InboxRecord;
import java.util.List;

/**
 * Which node runs a committed record's session (SPEC OP-2, DI-1): alone, every record runs here; in cluster mode the
 * session's lease decides, and a record of a session another node runs is handed to that node, whose queue mode then
 * treats it as if it had arrived there (steer, followup, collect, interrupt and {@code /stop} keep their meaning).
 */
@FunctionalInterface
public interface SessionOwnership {

    /** Every record runs on this node. */
    SessionOwnership LOCAL = List::of;

    /**
     * Decides where {@code record} runs, handing it elsewhere when another node runs its session.
     *
     * @return the records to run here, oldest first: {@code record} alone, or (a session just taken over from a dead
     *     node) its session's unfinished records, {@code record} among them; empty when another node runs it
     */
    List<InboxRecord> claim(InboxRecord record);
}
