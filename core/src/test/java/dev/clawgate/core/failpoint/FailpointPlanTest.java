package dev.clawgate.core.failpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

// The failpoint decision that crash tests rely on (ARCHITECTURE: Tests; SPEC IN-4 and OUT-12 are proven with it).
class FailpointPlanTest {

    @Test
    void unsetPropertiesGiveAPlanThatNeverHalts() {
        // SPEC IN-4 (crash harness): no property, no halt
        FailpointPlan plan = FailpointPlan.parse(null, "  ");
        assertThat(plan.armed()).isFalse();
        assertThat(IntStream.range(0, 1000).anyMatch(i -> plan.shouldHalt(Failpoints.INBOX_AFTER_RECORD)))
                .isFalse();
    }

    @Test
    void aBareNameHaltsOnTheFirstHitOfThatPointOnly() {
        // SPEC IN-4 (crash harness)
        FailpointPlan plan = FailpointPlan.parse("turn.mid_run", null);
        assertThat(plan.armed()).isTrue();
        assertThat(plan.shouldHalt("inbox.after_record")).isFalse();
        assertThat(plan.shouldHalt("turn.mid_run")).isTrue();
        assertThat(plan.shouldHalt("turn.mid_run")).isFalse();
    }

    @Test
    void nameColonNHaltsExactlyOnTheNthHitAndCountsOnlyThatName() {
        // SPEC IN-4 (crash harness): NAME:N lands the halt at a chosen message
        FailpointPlan plan = FailpointPlan.parse("inbox.after_record:3", null);
        List<Integer> halts = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            assertThat(plan.shouldHalt("turn.after_reply_commit")).isFalse();
            if (plan.shouldHalt("inbox.after_record")) halts.add(i);
        }
        assertThat(halts).containsExactly(3);
        assertThat(plan.targetHits()).isEqualTo(10);
    }

    @Test
    void randomKillsFollowTheSeedAndComeCloseToThePercentage() {
        // SPEC IN-4 (crash harness): random kills are reproducible from their seed
        FailpointPlan a = FailpointPlan.parse(null, "42:10");
        FailpointPlan b = FailpointPlan.parse(null, "42:10");
        List<Integer> haltsA = new ArrayList<>();
        List<Integer> haltsB = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            if (a.shouldHalt("turn.mid_run")) haltsA.add(i);
            if (b.shouldHalt("inbox.after_record")) haltsB.add(i);
        }
        assertThat(haltsA).isEqualTo(haltsB);
        assertThat(haltsA.size()).isBetween(850, 1150);
        assertThat(FailpointPlan.parse(null, "43:10").toString()).contains("seed 43");
    }

    @Test
    void aNamedPointAndRandomKillsCombine() {
        // SPEC IN-4 (crash harness)
        FailpointPlan plan = FailpointPlan.parse("turn.mid_run:2", "7:0.001");
        assertThat(plan.shouldHalt("turn.mid_run")).isFalse();
        assertThat(plan.shouldHalt("turn.mid_run")).isTrue();
        assertThat(plan.toString()).contains("turn.mid_run on hit 2").contains("random");
    }

    @Test
    void malformedValuesAreRejectedWithTheirProperty() {
        // SPEC IN-4 (crash harness): a mistyped failpoint must not leave a crash test unarmed
        assertThatThrownBy(() -> FailpointPlan.parse("inbox.after_record:0", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("clawgate.failpoint=")
                .hasMessageContaining("from 1");
        assertThatThrownBy(() -> FailpointPlan.parse("inbox.after_record:x", null))
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> FailpointPlan.parse("Inbox After", null)).hasMessageContaining("dotted lower-case");
        assertThatThrownBy(() -> FailpointPlan.parse("inbox", null)).hasMessageContaining("dotted lower-case");
        assertThatThrownBy(() -> FailpointPlan.parse(null, "42")).hasMessageContaining("SEED:PERCENT");
        assertThatThrownBy(() -> FailpointPlan.parse(null, "x:5")).hasMessageContaining("SEED must be an integer");
        assertThatThrownBy(() -> FailpointPlan.parse(null, "1:0")).hasMessageContaining("(0, 100]");
        assertThatThrownBy(() -> FailpointPlan.parse(null, "1:101")).hasMessageContaining("(0, 100]");
    }

    @Test
    void hitIsInertInATestJvmWithoutTheProperty() {
        // SPEC IN-4 (crash harness): production code passes failpoints freely when none is set
        assertThat(System.getProperty(Failpoints.PROPERTY)).isNull();
        for (int i = 0; i < 100; i++) Failpoints.hit(Failpoints.TURN_MID_RUN);
        assertThat(FailpointPlan.none().armed()).isFalse();
    }
}
