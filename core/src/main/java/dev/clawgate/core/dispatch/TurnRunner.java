package dev.clawgate.core.dispatch;

import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.util.function.Consumer;

/**
 * Runs one turn to its end. It owns the record's final state: when it returns, the record is in
 * a final state (or left for the dispatcher to fail if it threw).
 */
@FunctionalInterface
public interface TurnRunner {
    void run(RunHandle handle) throws Exception;

    /**
     * Whether {@link #run} moves its records to {@code DISPATCHED} itself (counting the attempt, SPEC
     * IN-4), with its first write, saving a transaction per turn; otherwise the dispatcher does so
     * just before {@code run}. A runner that says so marks them before anything that could crash
     * the process or run for long, or moves them straight to a final state.
     */
    default boolean dispatchesItself() {
        return false;
    }

    /**
     * {@code record} passed admission and now waits for its turn (SPEC RP-5: receipt is shown at
     * once, not when the turn starts). Runs on the dispatcher's thread: it must not block.
     */
    default void admitted(InboxRecord record) {
    }

    /**
     * An admitted {@code record} reached its final inbox state (SPEC IN-4, RP-5), told once. For a
     * record merged into a turn, {@code state} is that turn's final state, told when the turn ends.
     * Runs on the dispatcher's or the turn's thread: it must not block.
     */
    default void settled(InboxRecord record, InboxState state) {
    }

    /**
     * This runner, then {@code next} with the finished run's handle; {@link #dispatchesItself} and the
     * receipt hooks pass through unchanged (a plain lambda wrapper would silently drop them).
     */
    default TurnRunner andThen(Consumer<RunHandle> next) {
        TurnRunner self = this;
        return new TurnRunner() {
            @Override
            public void run(RunHandle handle) throws Exception {
                self.run(handle);
                next.accept(handle);
            }

            @Override
            public boolean dispatchesItself() {
                return self.dispatchesItself();
            }

            @Override
            public void admitted(InboxRecord record) {
                self.admitted(record);
            }

            @Override
            public void settled(InboxRecord record, InboxState state) {
                self.settled(record, state);
            }
        };
    }
}
