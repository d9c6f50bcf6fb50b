package dev.clawgate.testkit.contract;

import java.util.AbstractList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a running proof sees: the platform calls it caused, and the one way to assert on them. {@link #verify} counts
 * its checks: the reads of recorded calls the assertion made. An assertion that read no call, or that would pass just
 * as well had the platform received nothing, checks nothing about the platform and fails the proof (SPEC OUT-4).
 */
public final class ProofContext {
    private final PlatformCallLog log;
    private final int start;
    private int checks;

    ProofContext(PlatformCallLog log) {
        this.log = log;
        this.start = log.calls().size();
    }

    /** The calls the platform received since this proof began. */
    public List<PlatformCall> calls() {
        List<PlatformCall> all = log.calls();
        return List.copyOf(all.subList(Math.min(start, all.size()), all.size()));
    }

    /** The calls since this proof began whose method is {@code method}. */
    public List<PlatformCall> calls(String method) {
        return calls().stream().filter(c -> c.method().equals(method)).toList();
    }

    /**
     * Asserts on the calls this proof caused. A proof that never calls this, or whose platform saw no call, fails: a
     * capability is proven by what reached the platform, not by what the adapter says. The assertion must read the
     * calls it is given (a count or a body), and must fail when given none: {@code calls -> {}} or {@code calls ->
     * assertThat(calls).isNotNull()} prove nothing.
     */
    public void verify(Consumer<List<PlatformCall>> assertion) {
        List<PlatformCall> seen = calls();
        if (seen.isEmpty()) throw new AssertionError("the proof caused no platform call, so it cannot prove anything");
        Reads counted = new Reads(seen);
        assertion.accept(counted);
        if (counted.reads == 0) {
            throw new AssertionError("the proof's assertion read none of the " + seen.size()
                    + " platform calls it was given, so it checked nothing about them");
        }
        if (passesWithNoCall(assertion)) {
            throw new AssertionError(
                    "the proof's assertion passes even when the platform received nothing, so it checks nothing "
                            + "about what reached the platform");
        }
        checks += counted.reads;
    }

    private static boolean passesWithNoCall(Consumer<List<PlatformCall>> assertion) {
        try {
            assertion.accept(List.of());
            return true;
        } catch (AssertionError | RuntimeException failedAsItShould) {
            return false;
        }
    }

    /** How many reads of recorded calls the proof's assertions made. */
    int checks() {
        return checks;
    }

    int callCount() {
        return calls().size();
    }

    /** The calls, counting each read of an element: list, stream and iterator reads all go through {@link #get}. */
    private static final class Reads extends AbstractList<PlatformCall> {
        private final List<PlatformCall> calls;
        private int reads;

        Reads(List<PlatformCall> calls) {
            this.calls = calls;
        }

        @Override
        public PlatformCall get(int index) {
            PlatformCall c = calls.get(index);
            reads++;
            return c;
        }

        @Override
        public int size() {
            return calls.size();
        }
    }
}
