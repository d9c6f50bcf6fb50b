package dev.clawgate.testkit.contract;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.outbound.Capability;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The adapter contract harness (SPEC OUT-4): one dynamic test per declared capability and receive ack policy. Each runs
 * its proof against the platform server and fails when the proof caused no platform call or asserted nothing about one;
 * a declared capability without a proof fails, and so does a proof of a capability the adapter does not declare.
 *
 * <pre>{@code
 * @TestFactory Stream<DynamicTest> capabilities() {
 *     return CapabilityProofs.of(adapter.capabilities(), channel.ackPolicies(), server::calls)
 *             .prove(Capability.TEXT, p -> { adapter.send(...); p.verify(calls -> assertThat(...)); })
 *             .tests();
 * }
 * }</pre>
 */
public final class CapabilityProofs {
    private final Set<Capability> declared;
    private final Set<AckPolicy> ackPolicies;
    private final PlatformCallLog log;
    private final Map<Capability, Proof> proofs = new EnumMap<>(Capability.class);
    private final Map<AckPolicy, Proof> ackProofs = new EnumMap<>(AckPolicy.class);

    private CapabilityProofs(Set<Capability> declared, Set<AckPolicy> ackPolicies, PlatformCallLog log) {
        this.declared = declared.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(declared);
        this.ackPolicies = ackPolicies.isEmpty() ? EnumSet.noneOf(AckPolicy.class) : EnumSet.copyOf(ackPolicies);
        this.log = Objects.requireNonNull(log, "log");
    }

    /** A harness for an adapter declaring {@code declared} and a receiver declaring {@code ackPolicies}. */
    public static CapabilityProofs of(Set<Capability> declared, Set<AckPolicy> ackPolicies, PlatformCallLog log) {
        return new CapabilityProofs(declared, ackPolicies, log);
    }

    public CapabilityProofs prove(Capability capability, Proof proof) {
        if (proofs.putIfAbsent(capability, Objects.requireNonNull(proof, "proof")) != null) {
            throw new IllegalArgumentException("two proofs of " + capability.specName());
        }
        return this;
    }

    public CapabilityProofs prove(AckPolicy policy, Proof proof) {
        if (ackProofs.putIfAbsent(policy, Objects.requireNonNull(proof, "proof")) != null) {
            throw new IllegalArgumentException("two proofs of ack policy " + policy);
        }
        return this;
    }

    /** The proofs, as JUnit dynamic tests, plus one failing test for each unproven declaration or undeclared proof. */
    public Stream<DynamicTest> tests() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Capability c : declared) {
            Proof proof = proofs.get(c);
            String name = "capability " + c.specName();
            tests.add(
                    proof == null
                            ? DynamicTest.dynamicTest(name, () -> {
                                throw new AssertionError(c.specName() + " is declared but has no proof");
                            })
                            : DynamicTest.dynamicTest(name, () -> runProof(c.specName(), proof)));
        }
        for (AckPolicy p : ackPolicies) {
            Proof proof = ackProofs.get(p);
            String name = "ack policy " + p;
            tests.add(
                    proof == null
                            ? DynamicTest.dynamicTest(name, () -> {
                                throw new AssertionError("ack policy " + p + " is declared but has no proof");
                            })
                            : DynamicTest.dynamicTest(name, () -> runProof("ack policy " + p, proof)));
        }
        for (Capability c : proofs.keySet()) {
            if (!declared.contains(c)) {
                tests.add(DynamicTest.dynamicTest("undeclared " + c.specName(), () -> {
                    throw new AssertionError(
                            c.specName() + " has a proof but is not declared: declare it or drop the proof");
                }));
            }
        }
        for (AckPolicy p : ackProofs.keySet()) {
            if (!ackPolicies.contains(p)) {
                tests.add(DynamicTest.dynamicTest("undeclared ack policy " + p, () -> {
                    throw new AssertionError("ack policy " + p + " has a proof but is not declared");
                }));
            }
        }
        return tests.stream();
    }

    /** Runs one proof and applies the harness's own checks; public so the harness itself can be tested. */
    public void runProof(String what, Proof proof) throws Exception {
        ProofContext context = new ProofContext(log);
        proof.run(context);
        if (context.callCount() == 0) throw new AssertionError("the proof of " + what + " caused no platform call");
        if (context.checks() == 0) {
            throw new AssertionError(
                    "the proof of " + what + " asserted nothing about the platform calls (use verify)");
        }
    }
}
