package dev.clawgate.core.failpoint;

import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the failpoint properties asked for, and the decision whether a hit halts. Parsed from
 * {@code clawgate.failpoint=NAME} or {@code NAME:N} (halt on the N-th hit of NAME) and
 * {@code clawgate.failpoint.random=SEED:PERCENT} (any hit of any point halts with that probability). Holds the hit
 * counter, so one plan serves one process.
 */
public final class FailpointPlan {
    private static final FailpointPlan NONE = new FailpointPlan(null, 0, -1, 0);

    private final String target;
    private final long haltOnHit;
    private final long seed;
    private final double percent;
    private final AtomicLong targetHits = new AtomicLong();
    private final Random random;
    private final ReentrantLock randomLock = new ReentrantLock();

    private FailpointPlan(String target, long haltOnHit, long seed, double percent) {
        this.target = target;
        this.haltOnHit = haltOnHit;
        this.seed = seed;
        this.percent = percent;
        this.random = percent > 0 ? new Random(seed) : null;
    }

    /** A plan that never halts. */
    public static FailpointPlan none() {
        return NONE;
    }

    /**
     * Parses the two property values; null or blank means "not set".
     *
     * @throws IllegalArgumentException when a value is malformed, naming the property and what is wrong
     */
    public static FailpointPlan parse(String failpoint, String random) {
        String target = null;
        long n = 0;
        if (failpoint != null && !failpoint.isBlank()) {
            String spec = failpoint.strip();
            int colon = spec.lastIndexOf(':');
            target = colon < 0 ? spec : spec.substring(0, colon).strip();
            n = colon < 0 ? 1 : positive(spec.substring(colon + 1).strip(), Failpoints.PROPERTY, failpoint, "N");
            if (!target.matches("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+")) {
                throw new IllegalArgumentException(Failpoints.PROPERTY + "=" + failpoint
                        + ": the name must be a dotted lower-case point such as inbox.after_record");
            }
        }
        long seed = 0;
        double percent = 0;
        if (random != null && !random.isBlank()) {
            String[] parts = random.strip().split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException(
                        Failpoints.RANDOM_PROPERTY + "=" + random + ": write SEED:PERCENT, e.g. 42:2.5");
            }
            try {
                seed = Long.parseLong(parts[0].strip());
                percent = Double.parseDouble(parts[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        Failpoints.RANDOM_PROPERTY + "=" + random + ": SEED must be an integer and PERCENT a number",
                        e);
            }
            if (!(percent > 0 && percent <= 100)) {
                throw new IllegalArgumentException(
                        Failpoints.RANDOM_PROPERTY + "=" + random + ": PERCENT must be in (0, 100]");
            }
        }
        return target == null && percent == 0 ? NONE : new FailpointPlan(target, n, seed, percent);
    }

    private static long positive(String text, String property, String whole, String what) {
        try {
            long v = Long.parseLong(text);
            if (v >= 1) return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    property + "=" + whole + ": " + what + " must be a whole number from 1 up", e);
        }
        throw new IllegalArgumentException(property + "=" + whole + ": " + what + " must be a whole number from 1 up");
    }

    /** Whether any point can ever halt. */
    public boolean armed() {
        return target != null || percent > 0;
    }

    /** Counts a hit of {@code name} and says whether this hit halts the process. */
    public boolean shouldHalt(String name) {
        if (name.equals(target) && targetHits.incrementAndGet() == haltOnHit) return true;
        if (percent <= 0) return false;
        randomLock.lock();
        try {
            return random.nextDouble() * 100 < percent;
        } finally {
            randomLock.unlock();
        }
    }

    /** How many times the named target was hit so far. */
    public long targetHits() {
        return targetHits.get();
    }

    @Override
    public String toString() {
        if (!armed()) return "no failpoint";
        String named = target == null ? "" : target + " on hit " + haltOnHit;
        String rnd = percent > 0 ? String.format(Locale.ROOT, "random %.3f%% (seed %d)", percent, seed) : "";
        return named.isEmpty() ? rnd : rnd.isEmpty() ? named : named + ", " + rnd;
    }
}
