package dev.clawgate.testkit.contract;

/**
 * Proves one capability (SPEC OUT-4): drives the adapter's production send path and then asserts, through
 * {@link ProofContext#verify}, what the platform received.
 */
@FunctionalInterface
public interface Proof {
    void run(ProofContext proof) throws Exception;
}
