package dev.clawgate.core.internal.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pairing codes (SPEC IN-5): 8 characters, uppercase, no 0/O/1/I. */
class PairingCodesTest {

    @Test
    void everyCodeIsEightCharactersFromTheUnambiguousAlphabet() {
        // SPEC IN-5: property over 10,000 codes from a seeded Random; the seed is printed on failure
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Set<Character> seen = new HashSet<>();
        Set<String> codes = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String code = PairingCodes.generate(random);
            String why = "code #" + i + " with seed " + seed + ": " + code;
            assertThat(code).as(why).hasSize(8).matches("[A-HJ-NP-Z2-9]{8}").doesNotContain("0", "O", "1", "I");
            assertThat(PairingCodes.isWellFormed(code)).as(why).isTrue();
            code.chars().forEach(c -> seen.add((char) c));
            codes.add(code);
        }
        assertThat(seen)
                .as("every character of the alphabet is drawn, seed " + seed)
                .hasSize(32);
        assertThat(codes).as("codes do not repeat, seed " + seed).hasSize(10_000);
    }

    @Test
    void theAlphabetIsUppercaseLettersAndDigitsWithoutLookAlikes() {
        // SPEC IN-5
        assertThat(PairingCodes.ALPHABET)
                .hasSize(32)
                .doesNotContain("0", "O", "1", "I")
                .isUpperCase();
        assertThat(PairingCodes.ALPHABET.chars().distinct().count()).isEqualTo(32);
    }

    @Test
    void onlyCodeShapedTextIsWellFormed() {
        // SPEC IN-5
        assertThat(PairingCodes.isWellFormed("ABCD2345")).isTrue();
        assertThat(PairingCodes.isWellFormed("abcd2345")).isFalse();
        assertThat(PairingCodes.isWellFormed("ABCD234O")).isFalse();
        assertThat(PairingCodes.isWellFormed("ABCD2341")).isFalse();
        assertThat(PairingCodes.isWellFormed("ABCD234")).isFalse();
        assertThat(PairingCodes.isWellFormed("ABCD23456")).isFalse();
        assertThat(PairingCodes.isWellFormed(null)).isFalse();
    }
}
