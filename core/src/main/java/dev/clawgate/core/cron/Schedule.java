package dev.clawgate.core.cron;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * When a cron job fires (SPEC AG-5): a cron expression in a time zone, a fixed period counted from an anchor, or once
 * at an instant. Stored as {@link #kind()} plus {@link #spec()}.
 */
public sealed interface Schedule {
    /** The first fire strictly after {@code after}; empty when there is none. */
    Optional<Instant> next(Instant after);

    /** {@code cron}, {@code every} or {@code at}: the stored kind. */
    String kind();

    /** The stored text: the expression, the period in seconds, or the ISO instant. */
    String spec();

    /** For the agent and the CLI, e.g. {@code cron "0 9 * * 1-5" (Europe/Berlin)}. */
    String describe();

    /** A five-field cron expression evaluated in {@code zone}. */
    record Cron(CronExpression expression, ZoneId zone) implements Schedule {
        public Cron {
            Objects.requireNonNull(expression, "expression");
            Objects.requireNonNull(zone, "zone");
        }

        public Optional<Instant> next(Instant after) {
            return expression.next(after, zone);
        }

        public String kind() {
            return "cron";
        }

        public String spec() {
            return expression.toString();
        }

        public String describe() {
            return "cron \"" + expression + "\" (" + zone.getId() + ")";
        }
    }

    /** Every {@code period}, at {@code anchor + k * period}. */
    record Every(Duration period, Instant anchor) implements Schedule {
        public Every {
            Objects.requireNonNull(anchor, "anchor");
            if (period == null || period.isNegative() || period.isZero())
                throw new IllegalArgumentException("a period must be positive");
        }

        public Optional<Instant> next(Instant after) {
            if (after.isBefore(anchor)) return Optional.of(anchor.plus(period));
            long periods = Duration.between(anchor, after).toMillis() / period.toMillis() + 1;
            return Optional.of(anchor.plus(period.multipliedBy(periods)));
        }

        public String kind() {
            return "every";
        }

        public String spec() {
            return Long.toString(period.toSeconds());
        }

        public String describe() {
            long m = period.toMinutes();
            return m % 60 == 0 ? "every " + (m / 60) + " h" : "every " + m + " min";
        }
    }

    /** Once, at {@code when}. */
    record At(Instant when) implements Schedule {
        public At {
            Objects.requireNonNull(when, "when");
        }

        public Optional<Instant> next(Instant after) {
            return when.isAfter(after) ? Optional.of(when) : Optional.empty();
        }

        public String kind() {
            return "at";
        }

        public String spec() {
            return when.toString();
        }

        public String describe() {
            return "once at " + when;
        }
    }

    /**
     * The schedule a store row holds.
     *
     * @throws IllegalArgumentException when the row is not one this code wrote
     */
    static Schedule of(String kind, String spec, ZoneId zone, Instant anchor) {
        return switch (kind) {
            case "cron" -> new Cron(CronExpression.parse(spec), zone);
            case "every" -> new Every(Duration.ofSeconds(Long.parseLong(spec)), anchor);
            case "at" -> new At(Instant.parse(spec));
            default -> throw new IllegalArgumentException("unknown schedule kind " + kind);
        };
    }

    /** The zone a stored row keeps: the cron zone, else UTC. */
    default ZoneId zone() {
        return this instanceof Cron c ? c.zone() : java.time.ZoneOffset.UTC;
    }
}
