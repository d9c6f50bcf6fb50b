package dev.clawgate.core.internal.trace;

/**
 * Where the stages report a turn's phases (SPEC OP-8, OP-9): the listener set for the turn's thread by whoever runs the
 * turn, {@link PhaseListener#NONE} on every other thread. A stage writes {@code try (PhaseScope p =
 * TurnPhases.begin(Phase.TOOL_CALL, name)) { ... }} and needs no wiring.
 */
public final class TurnPhases {
    private static final ThreadLocal<PhaseListener> CURRENT = new ThreadLocal<>();

    private TurnPhases() {}

    /** Starts {@code phase} with this thread's listener; {@link PhaseScope#NONE} when there is none. */
    public static PhaseScope begin(Phase phase, String name) {
        PhaseListener listener = CURRENT.get();
        return listener == null ? PhaseScope.NONE : listener.begin(phase, name);
    }

    /** The listener of this thread, {@link PhaseListener#NONE} when none is set. */
    public static PhaseListener current() {
        PhaseListener listener = CURRENT.get();
        return listener == null ? PhaseListener.NONE : listener;
    }

    /** Work that may throw, such as a turn's run. */
    @FunctionalInterface
    public interface Work<E extends Exception> {
        void run() throws E;
    }

    /** Runs {@code work} on this thread with {@code listener} hearing its phases, then restores the one before. */
    public static <E extends Exception> void runWith(PhaseListener listener, Work<E> work) throws E {
        PhaseListener before = CURRENT.get();
        CURRENT.set(listener);
        try {
            work.run();
        } finally {
            if (before == null) CURRENT.remove();
            else CURRENT.set(before);
        }
    }

    /** {@code work} with this thread's listener, for a stage that hands part of a turn to another thread. */
    public static Runnable carry(Runnable work) {
        PhaseListener listener = CURRENT.get();
        if (listener == null) return work;
        return () -> runWith(listener, work::run);
    }
}
