package dev.clawgate.core.internal.run;

import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.run.RunHandle;
import java.util.function.Consumer;

/**
 * Runs one turn to its end. It owns the record's final state: when it returns, the record is in a final state (or left
 * for the dispatcher to fail if it threw). Receipts are not its business ({@link ReceiptListener}); whether it marks
 * its records dispatched itself is said to the {@link Dispatcher} ({@link Dispatching}).
 */
@FunctionalInterface
public interface TurnRunner {
    void run(RunHandle handle) throws Exception;

    /** This runner, then {@code next} with the finished run's handle (not when the run threw). */
    default TurnRunner andThen(Consumer<RunHandle> next) {
        return handle -> {
            run(handle);
            next.accept(handle);
        };
    }
}
