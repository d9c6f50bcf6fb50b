package dev.clawgate.core.inspect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The phases of the turn running on this thread, kept in memory until the turn ends (SPEC OP-8). Stages deep in the
 * turn reach it through {@link #current()}, which is {@link #OFF} (every call a no-op) outside a recorded turn or with
 * the inspector off, so a stage never needs to know whether it is recorded. Details are passed as suppliers: they are
 * built only for a recorded turn. Bounded: at most {@link #MAX_PHASES} phases, the rest counted.
 */
public final class TurnTrail {
    /** Most phases one turn keeps (a tool loop can make many): the rest are counted, not kept (SPEC OP-7). */
    public static final int MAX_PHASES = 200;

    /** The trail of no turn: records nothing. */
    public static final TurnTrail OFF = new TurnTrail(false, false, 0);

    private static final ThreadLocal<TurnTrail> CURRENT = new ThreadLocal<>();

    private final boolean active;
    private final boolean keepPrompt;
    private final long startNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<TurnPhase> phases = new ArrayList<>();
    private int dropped;
    private String prompt;

    TurnTrail(boolean active, boolean keepPrompt, long startNanos) {
        this.active = active;
        this.keepPrompt = keepPrompt;
        this.startNanos = startNanos;
    }

    /** The trail of the turn this thread runs, or {@link #OFF}. */
    public static TurnTrail current() {
        TurnTrail t = CURRENT.get();
        return t == null ? OFF : t;
    }

    void bind() {
        CURRENT.set(this);
    }

    static void unbind() {
        CURRENT.remove();
    }

    /** Whether this trail records; false for {@link #OFF}. */
    public boolean active() {
        return active;
    }

    /** A timestamp for {@link #span}: now, in nanoseconds. */
    public long now() {
        return active ? System.nanoTime() : 0;
    }

    /** A decision: a phase of no duration, at now. */
    public void mark(String name, Supplier<Detail> detail) {
        if (!active) return;
        long at = System.nanoTime();
        add(name, at, at, detail);
    }

    /** A phase from {@code startedAt} ({@link #now()} when it started) to now. */
    public void span(String name, long startedAt, Supplier<Detail> detail) {
        if (!active) return;
        add(name, startedAt, System.nanoTime(), detail);
    }

    /** The full prompt sent to the model; kept only with {@code inspector.keep_prompts} (the last call's wins). */
    public void prompt(Supplier<String> text) {
        if (!active || !keepPrompt) return;
        String t = text.get();
        lock.lock();
        try {
            prompt = t;
        } finally {
            lock.unlock();
        }
    }

    private void add(String name, long from, long to, Supplier<Detail> detail) {
        String json = detail == null ? "{}" : detail.get().toString();
        TurnPhase p = new TurnPhase(
                name, Duration.ofNanos(Math.max(0, from - startNanos)), Duration.ofNanos(to - from), json);
        lock.lock();
        try {
            if (phases.size() < MAX_PHASES) phases.add(p);
            else dropped++;
        } finally {
            lock.unlock();
        }
    }

    /** The phases so far, in the order they started. */
    List<TurnPhase> phases() {
        lock.lock();
        try {
            List<TurnPhase> out = new ArrayList<>(phases);
            out.sort(java.util.Comparator.comparing(TurnPhase::start));
            return out;
        } finally {
            lock.unlock();
        }
    }

    int dropped() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    String keptPrompt() {
        lock.lock();
        try {
            return prompt;
        } finally {
            lock.unlock();
        }
    }

    long startNanos() {
        return startNanos;
    }
}
