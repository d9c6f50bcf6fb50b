package dev.clawgate.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.AckPolicy;
import dev.clawgate.core.outbound.Capability;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

// SPEC OUT-4: the harness itself fails proofs that prove nothing, and declarations without proofs
class CapabilityProofsTest {
    private final List<PlatformCall> log = new CopyOnWriteArrayList<>();

    private void platformCall(String method) {
        log.add(new PlatformCall(method, "{}", Map.of()));
    }

    private static Throwable outcome(DynamicTest t) {
        Executable e = t.getExecutable();
        try {
            e.execute();
            return null;
        } catch (Throwable failure) {
            return failure;
        }
    }

    @Test
    void aProofThatCausedAPlatformCallAndCheckedItPasses() {
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {
                    platformCall("sendMessage");
                    p.verify(calls ->
                            assertThat(calls).extracting(PlatformCall::method).containsExactly("sendMessage"));
                })
                .tests()
                .toList();
        assertThat(tests).hasSize(1);
        assertThat(outcome(tests.get(0))).isNull();
    }

    @Test
    void aProofThatCausedNoPlatformCallFails() {
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {})
                .tests()
                .toList();
        assertThat(outcome(tests.get(0)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("caused no platform call");
    }

    @Test
    void aProofThatAssertedNothingFails() {
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> platformCall("sendMessage"))
                .tests()
                .toList();
        assertThat(outcome(tests.get(0))).isInstanceOf(AssertionError.class).hasMessageContaining("asserted nothing");
    }

    @Test
    void anEmptyAssertionFailsAlthoughThePlatformWasCalled() {
        // SPEC OUT-4: verify(calls -> {}) checks nothing
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {
                    platformCall("sendMessage");
                    p.verify(calls -> {});
                })
                .tests()
                .toList();
        assertThat(outcome(tests.get(0)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("read none of the 1 platform calls");
    }

    @Test
    void anAssertionThatNeverLooksAtACallFails() {
        // SPEC OUT-4: an assertion about the list object, its size or anything else but the calls proves nothing
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT, Capability.THREAD), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {
                    platformCall("sendMessage");
                    p.verify(calls -> assertThat(calls).isNotNull().isNotEmpty());
                })
                .prove(Capability.THREAD, p -> {
                    platformCall("sendMessage");
                    p.verify(calls -> assertThat(1 + 1).isEqualTo(2));
                })
                .tests()
                .toList();
        assertThat(tests)
                .allSatisfy(t -> assertThat(outcome(t))
                        .isInstanceOf(AssertionError.class)
                        .hasMessageContaining("read none"));
    }

    @Test
    void anAssertionThatWouldPassWithNoPlatformCallFails() {
        // SPEC OUT-4: a check that cannot fail (only "nothing bad arrived") does not prove what arrived
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {
                    platformCall("sendMessage");
                    p.verify(calls -> assertThat(calls).noneMatch(c -> c.body().contains("secret")));
                })
                .tests()
                .toList();
        assertThat(outcome(tests.get(0)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("passes even when the platform received nothing");
    }

    @Test
    void callsBeforeTheProofDoNotCount() {
        platformCall("getMe");
        var tests = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> p.verify(calls -> {}))
                .tests()
                .toList();
        assertThat(outcome(tests.get(0))).isInstanceOf(AssertionError.class).hasMessageContaining("no platform call");
    }

    @Test
    void aFailingAssertionFailsTheProof() {
        var tests = CapabilityProofs.of(Set.of(Capability.THREAD), Set.of(), () -> log)
                .prove(Capability.THREAD, p -> {
                    platformCall("sendMessage");
                    p.verify(calls -> assertThat(calls.get(0).body()).contains("message_thread_id"));
                })
                .tests()
                .toList();
        assertThat(outcome(tests.get(0))).isInstanceOf(AssertionError.class).hasMessageContaining("message_thread_id");
    }

    @Test
    void aDeclaredCapabilityOrAckPolicyWithoutAProofFails() {
        var tests = CapabilityProofs.of(
                        Set.of(Capability.TEXT, Capability.SILENT), Set.of(AckPolicy.AFTER_RECEIVE_RECORD), () -> log)
                .prove(Capability.TEXT, p -> {
                    platformCall("sendMessage");
                    p.verify(calls ->
                            assertThat(calls).extracting(PlatformCall::method).containsExactly("sendMessage"));
                })
                .tests()
                .toList();
        assertThat(tests)
                .extracting(DynamicTest::getDisplayName)
                .containsExactlyInAnyOrder("capability text", "capability silent", "ack policy AFTER_RECEIVE_RECORD");
        assertThat(tests.stream()
                        .filter(t -> t.getDisplayName().equals("capability silent"))
                        .map(CapabilityProofsTest::outcome))
                .singleElement()
                .asString()
                .contains("silent is declared but has no proof");
        assertThat(tests.stream()
                        .filter(t -> t.getDisplayName().startsWith("ack"))
                        .map(CapabilityProofsTest::outcome))
                .singleElement()
                .asString()
                .contains("has no proof");
    }

    @Test
    void aProofOfAnUndeclaredCapabilityFails() {
        var tests = CapabilityProofs.of(Set.of(), Set.of(), () -> log)
                .prove(Capability.RECONCILE_UNKNOWN_SEND, p -> {})
                .tests()
                .toList();
        assertThat(tests)
                .singleElement()
                .extracting(CapabilityProofsTest::outcome)
                .asString()
                .contains("not declared");
    }

    @Test
    void twoProofsOfOneCapabilityAreRefused() {
        var harness = CapabilityProofs.of(Set.of(Capability.TEXT), Set.of(), () -> log)
                .prove(Capability.TEXT, p -> {});
        assertThatThrownBy(() -> harness.prove(Capability.TEXT, p -> {})).hasMessageContaining("two proofs");
    }
}
