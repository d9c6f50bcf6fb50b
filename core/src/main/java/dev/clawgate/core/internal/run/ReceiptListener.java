package dev.clawgate.core.internal.run;

import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;

/**
 * What the user sees of a message before its reply (SPEC RP-5): its receipt is shown once the dispatcher admits it and
 * settles with its final inbox state (IN-4). The dispatcher holds one and tells it; it is separate from the
 * {@link TurnRunner}, so no wrapper around a runner can drop it. The turn's typing indicator comes from the same
 * implementation ({@code ChannelReceipts}). Calls come on the dispatcher's or a turn's thread: an implementation must
 * not block.
 */
public interface ReceiptListener {
    /** Shows nothing. */
    ReceiptListener NONE = new ReceiptListener() {};

    /**
     * {@code record} passed admission and now waits for its turn: its receipt is shown at once, not when the turn
     * starts.
     */
    default void received(InboxRecord record) {}

    /**
     * An admitted {@code record} reached its final inbox state, told once. For a record merged into a turn,
     * {@code state} is that turn's final state, told when the turn ends.
     */
    default void settled(InboxRecord record, InboxState state) {}
}
