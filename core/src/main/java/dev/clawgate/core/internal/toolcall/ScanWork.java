package dev.clawgate.core.internal.toolcall;

/**
 * Counts the characters every scan on this thread examined, nested scans of call bodies included, and bounds how deep
 * such nesting goes. The property tests read it to show that the work is linear in the input (SPEC AG-1: no input makes
 * the parser hang), without timing.
 */
final class ScanWork {
    /** Call bodies nested deeper than this are read as they are, not scanned again. */
    static final int MAX_NESTING = 3;

    private static final ThreadLocal<long[]> STEPS = ThreadLocal.withInitial(() -> new long[1]);
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private ScanWork() {}

    /** Starts counting afresh on this thread. */
    public static void reset() {
        STEPS.get()[0] = 0;
    }

    /** The characters examined on this thread since {@link #reset}. */
    public static long steps() {
        return STEPS.get()[0];
    }

    static void add(long n) {
        STEPS.get()[0] += n;
    }

    static boolean enterNested() {
        int[] d = DEPTH.get();
        if (d[0] >= MAX_NESTING) return false;
        d[0]++;
        return true;
    }

    static void leaveNested() {
        DEPTH.get()[0]--;
    }
}
