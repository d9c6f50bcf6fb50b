package dev.clawgate.core.internal.access;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Pairing codes (SPEC IN-5): 8 characters from A-Z and 2-9 without 0, O, 1 and I, so a code read aloud or copied by
 * hand cannot be mistyped into another. Production draws them from a {@link java.security.SecureRandom}: a code is a
 * one-time credential.
 */
final class PairingCodes {

    public static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    public static final int LENGTH = 8;

    private PairingCodes() {}

    public static String generate(RandomGenerator random) {
        Objects.requireNonNull(random, "random");
        char[] code = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            code[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(code);
    }

    /** Whether {@code s} has the shape of a code: 8 characters, all from the alphabet. */
    public static boolean isWellFormed(String s) {
        if (s == null || s.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            if (ALPHABET.indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }
}
