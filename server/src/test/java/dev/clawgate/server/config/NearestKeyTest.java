package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The SPEC defaults table: an unknown key is an error naming the nearest known key, which the CLI reports (SPEC OP-4).
 */
class NearestKeyTest {
    @Test
    void editDistanceCountsEditsAndAdjacentSwaps() {
        // SPEC defaults table (nearest known key)
        assertThat(NearestKey.editDistance("gateway", "gateway")).isZero();
        assertThat(NearestKey.editDistance("gatway", "gateway")).isEqualTo(1);
        assertThat(NearestKey.editDistance("gaetway", "gateway")).isEqualTo(1);
        assertThat(NearestKey.editDistance("", "abc")).isEqualTo(3);
        assertThat(NearestKey.editDistance("kitten", "sitting")).isEqualTo(3);
    }

    @Test
    void editDistanceIsSymmetricAndBoundedByTheLongerLength() {
        // SPEC defaults table
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int n = 0; n < 2_000; n++) {
            String a = randomKey(random);
            String b = randomKey(random);
            int d = NearestKey.editDistance(a, b);
            assertThat(d)
                    .as("seed %d: %s / %s", seed, a, b)
                    .isEqualTo(NearestKey.editDistance(b, a))
                    .isBetween(Math.abs(a.length() - b.length()), Math.max(a.length(), b.length()));
        }
    }

    @Test
    void farAwayKeysAreNotSuggested() {
        // SPEC defaults table
        assertThat(NearestKey.suggest(
                        "zzz", "history", "history", List.of("max_messages", "max_chars"), ConfigSchema.knownPaths()))
                .isEmpty();
        assertThat(NearestKey.suggest(
                        "max_mesages",
                        "history",
                        "history",
                        List.of("max_messages", "max_chars"),
                        ConfigSchema.knownPaths()))
                .contains("history.max_messages");
    }

    private static String randomKey(Random random) {
        String alphabet = "abc_";
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(8); i > 0; i--) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return sb.toString();
    }
}
