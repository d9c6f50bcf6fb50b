package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Duration strings for keys such as inbox.max_age (SPEC IN-4). */
class DurationValueTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "90s      | PT1M30S",
                "30m      | PT30M",
                "1h       | PT1H",
                "2h30m    | PT2H30M",
                "1d       | PT24H",
                "1d12h    | PT36H",
                "1h 30m   | PT1H30M",
                "'45 s'   | PT45S",
                "250ms    | PT0.25S",
                "1m500ms  | PT1M0.5S",
                "0s       | PT0S",
                "' 2h '   | PT2H",
                "120m     | PT2H"
            })
    void wellFormedStringsParse(String text, String expected) throws Exception {
        // SPEC IN-4
        assertThat(DurationValue.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''        | is empty; write an integer number of seconds or a string like",
                "'   '     | is empty",
                "h         | is not a duration; write an integer number of seconds",
                "90        | has no unit; write \"90s\" (or the integer 90) for seconds",
                "1h30      | has a number without a unit",
                "1 2h      | has a number without a unit",
                "90x       | has the unknown unit 'x'; use d, h, m, s or ms",
                "1H        | has the unknown unit 'H'",
                "2 hours   | has the unknown unit 'hours'",
                "30m2h     | must give each unit once, largest first, e.g. \"2h30m\"",
                "1h1h      | must give each unit once",
                "1.5h      | has a fraction; use whole numbers of smaller units, e.g. \"1h30m\" for 1.5 hours",
                "-1h       | must not be negative",
                "1h-5m     | is not a duration",
                "3651d     | is too long; use at most 3650d",
                "99999999999999999999s | is too long",
                "3650d1s   | is too long"
            })
    void malformedStringsAreRejectedWithTheReason(String text, String reason) {
        // SPEC IN-4
        assertThatThrownBy(() -> DurationValue.parse(text))
                .isInstanceOf(DurationValue.Invalid.class)
                .message()
                .startsWith(reason)
                .doesNotContain("\n");
    }

    @Test
    void theLongestAllowedDurationStillParses() throws Exception {
        // SPEC IN-4
        assertThat(DurationValue.parse("3650d")).isEqualTo(DurationValue.MAX);
    }

    @Test
    void formattingGivesTheShortestFormThatParsesBack() throws Exception {
        // SPEC IN-4
        assertThat(DurationValue.format(Duration.ofMinutes(150))).isEqualTo("2h30m");
        assertThat(DurationValue.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(DurationValue.format(Duration.ofMillis(1500))).isEqualTo("1s500ms");
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int n = 0; n < 2_000; n++) {
            Duration d = Duration.ofMillis(random.nextLong(DurationValue.MAX.toMillis() + 1));
            assertThat(DurationValue.parse(DurationValue.format(d)))
                    .as("seed %d: %s", seed, d)
                    .isEqualTo(d);
        }
    }
}
