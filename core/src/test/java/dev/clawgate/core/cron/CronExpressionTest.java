package dev.clawgate.core.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class CronExpressionTest {
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static List<Instant> fires(String expr, ZoneId zone, String after, int n) {
        CronExpression c = CronExpression.parse(expr);
        List<Instant> out = new ArrayList<>();
        Instant t = Instant.parse(after);
        for (int i = 0; i < n; i++) {
            t = c.next(t, zone).orElseThrow();
            out.add(t);
        }
        return out;
    }

    @Test
    void everyFiveMinutesFiresOnTheFivesStrictlyAfterTheGivenTime() {
        // SPEC AG-5: cron_add takes a five-field cron expression
        assertThat(fires("*/5 * * * *", UTC, "2025-03-01T10:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2025-03-01T10:05:00Z"),
                        Instant.parse("2025-03-01T10:10:00Z"),
                        Instant.parse("2025-03-01T10:15:00Z"));
        assertThat(fires("*/5 * * * *", UTC, "2025-03-01T10:04:59Z", 1))
                .containsExactly(Instant.parse("2025-03-01T10:05:00Z"));
    }

    @Test
    void weekdaysAtNineSkipTheWeekendInTheJobsTimeZone() {
        // SPEC AG-5: 2025-03-01 is a Saturday; Berlin is UTC+1 in March before the switch
        assertThat(fires("0 9 * * MON-FRI", BERLIN, "2025-03-01T00:00:00Z", 2))
                .containsExactly(Instant.parse("2025-03-03T08:00:00Z"), Instant.parse("2025-03-04T08:00:00Z"));
    }

    @Test
    void namesListsRangesWithStepsAndSundayAsSevenAllParse() {
        // SPEC AG-5
        assertThat(fires("30 8,20 1-10/3 jan,Jul *", UTC, "2025-01-01T00:00:00Z", 4))
                .containsExactly(
                        Instant.parse("2025-01-01T08:30:00Z"), Instant.parse("2025-01-01T20:30:00Z"),
                        Instant.parse("2025-01-04T08:30:00Z"), Instant.parse("2025-01-04T20:30:00Z"));
        assertThat(fires("0 12 * * 7", UTC, "2025-03-01T00:00:00Z", 1))
                .containsExactly(Instant.parse("2025-03-02T12:00:00Z"));
        assertThat(fires("0 12 * * 0", UTC, "2025-03-01T00:00:00Z", 1))
                .containsExactly(Instant.parse("2025-03-02T12:00:00Z"));
    }

    @Test
    void whenBothDayFieldsAreRestrictedEitherMatches() {
        // SPEC AG-5: Vixie cron semantics; 2025-03-01 is a Saturday, so the 15th or any Monday
        assertThat(fires("0 0 15 * MON", UTC, "2025-03-01T00:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2025-03-03T00:00:00Z"),
                        Instant.parse("2025-03-10T00:00:00Z"),
                        Instant.parse("2025-03-15T00:00:00Z"));
    }

    @Test
    void aTimeThatTheSpringForwardSkipsMovesToTheNextDay() {
        // SPEC AG-5: 2025-03-30 02:30 does not exist in Berlin
        assertThat(fires("30 2 * * *", BERLIN, "2025-03-29T12:00:00Z", 2))
                .containsExactly(Instant.parse("2025-03-31T00:30:00Z"), Instant.parse("2025-04-01T00:30:00Z"));
    }

    @Test
    void anExpressionThatNeverFiresSaysSo() {
        // SPEC AG-5: 30 February never comes
        assertThat(CronExpression.parse("0 0 30 2 *").next(Instant.parse("2025-01-01T00:00:00Z"), UTC))
                .isEmpty();
    }

    @Test
    void badExpressionsAreRefusedNamingTheField() {
        // SPEC AG-5: bad input gets a clear error
        assertThatThrownBy(() -> CronExpression.parse("* * * *")).hasMessageContaining("5 fields");
        assertThatThrownBy(() -> CronExpression.parse("60 * * * *")).hasMessageContaining("minute field \"60\"");
        assertThatThrownBy(() -> CronExpression.parse("* 25 * * *")).hasMessageContaining("hour field");
        assertThatThrownBy(() -> CronExpression.parse("* * 0 * *")).hasMessageContaining("day of month field");
        assertThatThrownBy(() -> CronExpression.parse("* * * FOO *")).hasMessageContaining("month field");
        assertThatThrownBy(() -> CronExpression.parse("*/0 * * * *")).hasMessageContaining("step");
        assertThatThrownBy(() -> CronExpression.parse("5-1 * * * *")).hasMessageContaining("backwards");
        assertThatThrownBy(() -> CronExpression.parse("1,,2 * * * *")).hasMessageContaining("minute field");
    }

    @Test
    void theNextFireIsTheFirstMinuteThatAnIndependentMatcherAccepts() {
        // SPEC AG-5: property over many expressions and start times, against predicates written out by hand
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        Map<String, IntPredicate> minutes = Map.of(
                "*",
                v -> true,
                "*/7",
                v -> v % 7 == 0,
                "0",
                v -> v == 0,
                "15,45",
                v -> v == 15 || v == 45,
                "10-20/5",
                v -> v == 10 || v == 15 || v == 20);
        Map<String, IntPredicate> hours = Map.of(
                "*", v -> true, "*/5", v -> v % 5 == 0, "9", v -> v == 9, "0-6", v -> v <= 6, "22,23", v -> v >= 22);
        Map<String, IntPredicate> doms =
                Map.of("1", v -> v == 1, "13-15", v -> v >= 13 && v <= 15, "*/10", v -> v % 10 == 1);
        Map<String, IntPredicate> dows =
                Map.of("MON", v -> v == 1, "SAT,SUN", v -> v == 6 || v == 7, "2-4", v -> v >= 2 && v <= 4);
        List<String> mk = List.copyOf(minutes.keySet());
        List<String> hk = List.copyOf(hours.keySet());
        List<String> dk = new ArrayList<>(doms.keySet());
        dk.add("*");
        List<String> wk = new ArrayList<>(dows.keySet());
        wk.add("*");
        for (int i = 0; i < 300; i++) {
            String m = mk.get(r.nextInt(mk.size()));
            String h = hk.get(r.nextInt(hk.size()));
            String d = dk.get(r.nextInt(dk.size()));
            String w = wk.get(r.nextInt(wk.size()));
            Instant start = Instant.parse("2025-01-01T00:00:00Z").plus(Duration.ofMinutes(r.nextInt(500_000)));
            ZonedDateTime t = start.atZone(UTC).truncatedTo(ChronoUnit.MINUTES);
            do {
                t = t.plusMinutes(1);
            } while (!matches(
                    t,
                    minutes.get(m),
                    hours.get(h),
                    d.equals("*") ? null : doms.get(d),
                    w.equals("*") ? null : dows.get(w)));
            String expr = m + " " + h + " " + d + " * " + w;
            assertThat(CronExpression.parse(expr).next(start, UTC))
                    .as("seed %d: %s after %s", seed, expr, start)
                    .contains(t.toInstant());
        }
    }

    private static boolean matches(
            ZonedDateTime t, IntPredicate minute, IntPredicate hour, IntPredicate dom, IntPredicate dow) {
        boolean day;
        if (dom == null && dow == null) day = true;
        else if (dom == null) day = dow.test(t.getDayOfWeek().getValue());
        else if (dow == null) day = dom.test(t.getDayOfMonth());
        else day = dom.test(t.getDayOfMonth()) || dow.test(t.getDayOfWeek().getValue());
        return day && hour.test(t.getHour()) && minute.test(t.getMinute());
    }
}
