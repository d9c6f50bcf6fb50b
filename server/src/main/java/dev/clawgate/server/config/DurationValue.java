package dev.clawgate.server.config;

import java.time.Duration;
import java.util.List;

/**
 * Duration keys such as {@code inbox.max_age} (SPEC IN-4): parts of a whole number and a unit, largest unit first
 * ({@code "90s"}, {@code "30m"}, {@code "1h"}, {@code "2h30m"}, {@code "1d 12h"}); spaces between parts and before a
 * unit are allowed. Units: d, h, m, s, ms. The integer form (seconds) is read by {@link TableReader#duration}.
 */
final class DurationValue {
    /** How an error message names what a duration key accepts. */
    static final String FORMS = "an integer number of seconds or a string like \"90s\", \"30m\", \"1h\", \"2h30m\"";
    /** The longest duration a key may hold; beyond it arithmetic on instants can overflow. */
    static final Duration MAX = Duration.ofDays(3650);

    private static final List<String> UNITS = List.of("d", "h", "m", "s", "ms");
    private static final List<Duration> SIZES = List.of(
            Duration.ofDays(1),
            Duration.ofHours(1),
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            Duration.ofMillis(1));

    private DurationValue() {}

    /** Why a string is not a duration; the message never quotes the whole string. */
    static final class Invalid extends Exception {
        Invalid(String problem) {
            super(problem);
        }
    }

    /** Parses the string form; the result may be zero, range checks are the caller's. */
    static Duration parse(String text) throws Invalid {
        String s = text.strip();
        if (s.isEmpty()) throw new Invalid("is empty; write " + FORMS);
        if (s.startsWith("-")) throw new Invalid("must not be negative");
        Duration total = Duration.ZERO;
        int previousUnit = -1;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && isDigit(s.charAt(i))) i++;
            if (i == start) throw new Invalid("is not a duration; write " + FORMS);
            String digits = s.substring(start, i);
            if (i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
                throw new Invalid("has a fraction; use whole numbers of smaller units, e.g. \"1h30m\" for 1.5 hours");
            }
            while (i < s.length() && s.charAt(i) == ' ') i++;
            int unitStart = i;
            while (i < s.length() && Character.isLetter(s.charAt(i))) i++;
            String unit = s.substring(unitStart, i);
            if (unit.isEmpty()) {
                throw new Invalid(
                        start == 0 && i == s.length()
                                ? "has no unit; write \"" + digits + "s\" (or the integer " + digits + ") for seconds"
                                : "has a number without a unit; give each number one of d, h, m, s, ms");
            }
            int u = UNITS.indexOf(unit);
            if (u < 0) throw new Invalid("has the unknown unit '" + unit + "'; use d, h, m, s or ms");
            if (u <= previousUnit) throw new Invalid("must give each unit once, largest first, e.g. \"2h30m\"");
            previousUnit = u;
            total = plus(total, SIZES.get(u), digits);
            while (i < s.length() && s.charAt(i) == ' ') i++;
        }
        return total;
    }

    /** The shortest string form, e.g. {@code 2h30m}; {@code 0s} for zero. */
    static String format(Duration d) {
        if (d.isZero()) return "0s";
        StringBuilder out = new StringBuilder();
        Duration rest = d;
        for (int u = 0; u < UNITS.size(); u++) {
            long n = rest.dividedBy(SIZES.get(u));
            if (n > 0) {
                out.append(n).append(UNITS.get(u));
                rest = rest.minus(SIZES.get(u).multipliedBy(n));
            }
        }
        return out.isEmpty() ? d.toNanos() + "ns" : out.toString();
    }

    private static Duration plus(Duration total, Duration unit, String digits) throws Invalid {
        try {
            Duration sum = total.plus(unit.multipliedBy(Long.parseLong(digits)));
            if (sum.compareTo(MAX) > 0) throw new Invalid(tooLong());
            return sum;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new Invalid(tooLong());
        }
    }

    static String tooLong() {
        return "is too long; use at most " + format(MAX);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
