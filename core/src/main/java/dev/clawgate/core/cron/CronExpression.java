package dev.clawgate.core.cron;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A classic five-field cron expression: minute, hour, day of month, month, day of week (SPEC AG-5 {@code cron_add}).
 * Fields take {@code *}, numbers, ranges {@code a-b}, steps {@code * /n} and {@code a-b/n}, lists {@code a,b}, and
 * month or weekday names ({@code JAN}, {@code MON}); day of week 0 and 7 are Sunday. As in Vixie cron, when both day
 * fields are restricted a day matches either of them.
 */
public final class CronExpression {
    /** How far ahead {@link #next} looks before it says the expression never fires (e.g. 30 February). */
    private static final int HORIZON_YEARS = 5;

    private static final List<String> MONTHS =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    private final String text;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private CronExpression(String text, String[] f) {
        this.text = text;
        this.minutes = field(f[0], "minute", 0, 59, List.of(), 0);
        this.hours = field(f[1], "hour", 0, 23, List.of(), 0);
        this.daysOfMonth = field(f[2], "day of month", 1, 31, List.of(), 1);
        this.months = field(f[3], "month", 1, 12, MONTHS, 1);
        BitSet dow = field(f[4], "day of week", 0, 7, DAYS, 0);
        if (dow.get(7)) dow.set(0);
        this.daysOfWeek = dow;
        this.anyDayOfMonth = f[2].equals("*") || f[2].equals("?");
        this.anyDayOfWeek = f[4].equals("*") || f[4].equals("?");
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the field that is wrong and what it accepts
     */
    public static CronExpression parse(String text) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("a cron expression is empty");
        String[] fields = text.strip().split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException(
                    "a cron expression has 5 fields (minute hour day-of-month month day-of-week), got " + fields.length
                            + " in \"" + text.strip() + "\"");
        }
        return new CronExpression(String.join(" ", fields), fields);
    }

    /** The first fire strictly after {@code after}, in {@code zone}; empty when it never fires again. */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        ZonedDateTime t = after.atZone(zone).truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        ZonedDateTime horizon = t.plusYears(HORIZON_YEARS);
        while (t.isBefore(horizon)) {
            if (!months.get(t.getMonthValue())) {
                t = t.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay(zone);
            } else if (!dayMatches(t)) {
                t = t.toLocalDate().plusDays(1).atStartOfDay(zone);
            } else if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            } else if (!minutes.get(t.getMinute())) {
                t = t.plusMinutes(1);
            } else {
                return Optional.of(t.toInstant());
            }
        }
        return Optional.empty();
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean dom = daysOfMonth.get(t.getDayOfMonth());
        boolean dow = daysOfWeek.get(
                t.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : t.getDayOfWeek().getValue());
        if (anyDayOfMonth && anyDayOfWeek) return true;
        if (anyDayOfMonth) return dow;
        if (anyDayOfWeek) return dom;
        return dom || dow;
    }

    private static BitSet field(String spec, String name, int min, int max, List<String> names, int nameBase) {
        BitSet bits = new BitSet(max + 1);
        for (String part : spec.split(",", -1)) {
            if (part.isEmpty()) throw bad(name, spec, min, max);
            String range = part;
            int step = 1;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                range = part.substring(0, slash);
                step = number(part.substring(slash + 1), name, spec, min, max, List.of(), 0);
                if (step < 1)
                    throw new IllegalArgumentException("the " + name + " step in \"" + spec + "\" must be 1 or more");
            }
            int from;
            int to;
            if (range.equals("*") || range.equals("?")) {
                from = min;
                to = max;
            } else {
                int dash = range.indexOf('-');
                from = number(dash < 0 ? range : range.substring(0, dash), name, spec, min, max, names, nameBase);
                to = dash < 0
                        ? (slash >= 0 ? max : from)
                        : number(range.substring(dash + 1), name, spec, min, max, names, nameBase);
                if (to < from)
                    throw new IllegalArgumentException("the " + name + " range in \"" + spec + "\" runs backwards");
            }
            for (int v = from; v <= to; v += step) bits.set(v);
        }
        return bits;
    }

    private static int number(String s, String name, String spec, int min, int max, List<String> names, int nameBase) {
        int named = names.indexOf(s.toUpperCase(Locale.ROOT));
        if (named >= 0) return named + nameBase;
        try {
            int v = Integer.parseInt(s);
            if (v < min || v > max) throw bad(name, spec, min, max);
            return v;
        } catch (NumberFormatException e) {
            throw bad(name, spec, min, max);
        }
    }

    private static IllegalArgumentException bad(String name, String spec, int min, int max) {
        return new IllegalArgumentException("the " + name + " field \"" + spec + "\" is not valid: use *, numbers "
                + min + "-" + max + ", ranges a-b, steps */n and lists a,b");
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CronExpression c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
