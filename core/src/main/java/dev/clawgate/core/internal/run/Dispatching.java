package dev.clawgate.core.internal.run;

/**
 * Who moves a run's records to {@code DISPATCHED} (counting the attempt, SPEC IN-4): the dispatcher, just before the
 * run, or the runner itself with its first write, saving a transaction per turn (a runner that does so marks them
 * before anything that could crash the process or run for long, or moves them straight to a final state).
 */
public enum Dispatching {
    BY_DISPATCHER,
    BY_RUNNER
}
