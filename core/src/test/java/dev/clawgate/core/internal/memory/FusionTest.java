package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.memory.Vectors;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FusionTest {
    @Test
    void atTheDefaultWeightEitherHalfAloneCountsInFullAndAMissingVectorLeavesTheKeywordScore() {
        // SPEC ME-3, ME-5: the fused score is on min_relevance's scale; without a vector it is the keyword score
        assertThat(Fusion.fuse(0.7, 0, 0.5)).isCloseTo(0.7, within(1e-12));
        assertThat(Fusion.fuse(0, 0.7, 0.5)).isCloseTo(0.7, within(1e-12));
        assertThat(Fusion.fuse(0, 0, 0.5)).isZero();
    }

    @Test
    void twoWeakHalvesDoNotAddUpToAStrongOne() {
        // SPEC ME-3, ME-5: one common word and a vague likeness stay under min_relevance 0.4
        assertThat(Fusion.fuse(0.25, 0.3, 0.5)).isCloseTo(0.3, within(1e-12));
        assertThat(Fusion.fuse(0.5, 0.5, 0.5)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void aVectorFarBelowTheQuerysBestMatchDoesNotCount() {
        // SPEC ME-5: within a third of the calibrated range (0.1 cosine at 0.3..0.6) of the best cosine only
        Embedder.Calibration c = new Embedder.Calibration(0.3, 0.6);
        assertThat(Fusion.relativeMargin(c)).isCloseTo(0.1, within(1e-12));
        assertThat(Fusion.vectorRelevance(0.55, 0.60, c)).isCloseTo(0.8333, within(1e-4));
        assertThat(Fusion.vectorRelevance(0.45, 0.60, c)).isZero();
        assertThat(Fusion.vectorRelevance(0.45, 0.50, c)).isCloseTo(0.5, within(1e-12));
        assertThat(Fusion.vectorRelevance(Double.NaN, 0.50, c)).isZero();
    }

    @Test
    void weightZeroIsKeywordOnlyAndWeightOneVectorOnly() {
        // SPEC ME-5: memory.vector_weight
        assertThat(Fusion.fuse(0.6, 0.9, 0)).isCloseTo(0.6, within(1e-12));
        assertThat(Fusion.fuse(0.6, 0.9, 1)).isCloseTo(0.9, within(1e-12));
        assertThat(Fusion.fuse(0.6, 0.9, 0.25)).isCloseTo(0.6, within(1e-12));
        assertThat(Fusion.fuse(0.2, 0.9, 0.25)).isCloseTo(0.45, within(1e-12));
    }

    @Test
    void theFusedScoreStaysInZeroOneAndNeverFallsWhenEitherHalfRises() {
        // SPEC ME-3: property over many inputs; seed printed on failure
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            double k = r.nextDouble();
            double v = r.nextDouble();
            double w = r.nextDouble();
            double f = Fusion.fuse(k, v, w);
            assertThat(f).as("seed %d", seed).isBetween(0.0, 1.0);
            assertThat(Fusion.fuse(Math.min(1, k + 0.1), v, w))
                    .as("seed %d", seed)
                    .isGreaterThanOrEqualTo(f);
            assertThat(Fusion.fuse(k, Math.min(1, v + 0.1), w))
                    .as("seed %d", seed)
                    .isGreaterThanOrEqualTo(f);
        }
    }

    @Test
    void calibrationMapsCosineLinearlyBetweenFloorAndCeiling() {
        // SPEC ME-5: cosine onto [0, 1]
        Embedder.Calibration c = new Embedder.Calibration(0.2, 0.6);
        assertThat(c.relevance(0.1)).isZero();
        assertThat(c.relevance(0.4)).isCloseTo(0.5, within(1e-12));
        assertThat(c.relevance(0.9)).isEqualTo(1);
    }

    @Test
    void vectorsRoundTripAsLittleEndianFloat32OfUnitLength() {
        // SPEC ME-5: the stored form
        float[] v = Vectors.unit(new float[] {3, 4});
        assertThat(Vectors.fromBytes(Vectors.toBytes(v))).containsExactly(0.6f, 0.8f);
        assertThat(Vectors.toBytes(new float[] {1})).containsExactly(0, 0, (byte) 0x80, 0x3f);
        assertThat(Vectors.dot(v, Vectors.toBytes(v))).isCloseTo(1, within(1e-6));
    }
}
