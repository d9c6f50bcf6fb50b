package dev.clawgate.testkit.contract;

import java.util.List;
import java.util.function.Consumer;

/** What a running proof sees: the platform calls it caused, and the one way to assert on them. */
public final class ProofContext {
    private final PlatformCallLog log;
    private final int start;
    private int verified;

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
     * Asserts on the calls this proof caused. A proof that never calls this, or whose platform saw
     * no call, fails: a capability is proven by what reached the platform, not by what the adapter says.
     */
    public void verify(Consumer<List<PlatformCall>> assertion) {
        List<PlatformCall> seen = calls();
        if (seen.isEmpty()) throw new AssertionError("the proof caused no platform call, so it cannot prove anything");
        assertion.accept(seen);
        verified++;
    }

    int verifications() {
        return verified;
    }

    int callCount() {
        return calls().size();
    }
}
