package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.CronSettings;
import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronExpression;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code cron_add} (SPEC AG-5): schedules an agent turn in this conversation, by a five-field cron expression, every N
 * minutes, or once at a time. The fired turn runs like a message from the sender who scheduled it, so its reply goes to
 * this conversation through the outbox.
 */
final class CronAddTool extends BuiltinTool {
    public static final String NAME = "cron_add";
    static final int MAX_PROMPT_CHARS = 4_000;
    /** How many upcoming fires of a cron expression are checked against the minimum interval. */
    private static final int GAPS_CHECKED = 64;

    private final CronBook book;
    private final Supplier<CronSettings> settings;
    private final Clock clock;
    private final Runnable changed;

    /** @param changed called after a job was added, so the scheduler looks again */
    public CronAddTool(CronBook book, Supplier<CronSettings> settings, Clock clock, Runnable changed) {
        super(
                NAME,
                "Schedule a task: the agent is asked the prompt at the given times and the answer is sent to this "
                        + "conversation. "
                        + "Give exactly one of cron, every_minutes or at.",
                ArgumentSchema.object()
                        .string("prompt", "What to ask the agent each time the task runs", true)
                        .string(
                                "cron",
                                "A five-field cron expression (minute hour day-of-month month day-of-week), "
                                        + "e.g. \"0 9 * * 1-5\"",
                                false)
                        .integer("every_minutes", "Run every N minutes instead", 1, 525_600)
                        .string(
                                "at",
                                "Run once at this ISO-8601 time instead, e.g. \"2030-01-31T09:00:00+01:00\"",
                                false)
                        .string(
                                "tz",
                                "Time zone for cron and for an 'at' without offset, e.g. \"Europe/Berlin\" "
                                        + "(default: the gateway's)",
                                false)
                        .string("name", "A short label for the task", false)
                        .object(
                                "delivery",
                                "Where the result goes: this conversation (see Channel Context)",
                                ArgumentSchema.object()
                                        .string("channel", "The channel", false)
                                        .string("to", "The chat", false)));
        this.book = book;
        this.settings = settings;
        this.clock = clock;
        this.changed = changed;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            InboundMessage origin = context.origin();
            if (origin == null)
                return ToolResult.error("cron_add needs a conversation to deliver to; there is none in this run");
            ToolArguments args = ToolArguments.of(arguments);
            String prompt = args.requiredString("prompt").strip();
            if (prompt.isEmpty()) return ToolResult.error("prompt is empty; say what the task should do");
            if (prompt.length() > MAX_PROMPT_CHARS) {
                return ToolResult.error(
                        "prompt is " + prompt.length() + " characters; the most is " + MAX_PROMPT_CHARS);
            }
            checkDelivery(arguments.get("delivery"), origin);
            CronSettings limits = settings.get();
            Instant now = clock.instant();
            Schedule schedule = schedule(args, zone(args), now, limits.minInterval());
            Instant first = schedule.next(now)
                    .orElseThrow(() -> new RefusedException("that schedule never fires after now (" + now + ")"));
            String name = args.optionalString("name", null);
            name = name == null || name.isBlank() ? null : name.strip();
            CronJob job = new CronJob(0, context.session(), CronTarget.of(origin), name, prompt, schedule, now, first);
            Optional<CronJob> stored = book.add(job, limits.maxJobsPerSession());
            if (stored.isEmpty()) {
                return ToolResult.error("this conversation already has " + limits.maxJobsPerSession()
                        + " scheduled tasks, the most allowed (cron.max_jobs_per_session); remove one with "
                        + "cron_remove first");
            }
            changed.run();
            CronJob j = stored.get();
            return ToolResult.ok(
                    "Scheduled task " + j.id() + ": " + schedule.describe() + ", next run at " + first + ".");
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        }
    }

    private static void checkDelivery(JsonNode delivery, InboundMessage origin) throws RefusedException {
        if (delivery == null || delivery.isNull()) return;
        if (!delivery.isObject()) throw new RefusedException("delivery must be an object with channel and to");
        JsonNode channel = delivery.get("channel");
        JsonNode to = delivery.get("to");
        boolean sameChannel =
                channel == null || channel.isNull() || origin.channel().equals(channel.asText());
        boolean sameChat = to == null || to.isNull() || origin.replyTarget().equals(to.asText());
        if (!sameChannel || !sameChat) {
            // the fired turn runs as this sender; anywhere else it would speak for them where they did not ask
            throw new RefusedException(
                    "a scheduled task is delivered to the conversation that scheduled it (channel=" + origin.channel()
                            + ", to=" + origin.replyTarget() + "); schedule it from the other conversation instead");
        }
    }

    private static ZoneId zone(ToolArguments args) throws RefusedException {
        String tz = args.optionalString("tz", null);
        if (tz == null || tz.isBlank()) return ZoneId.systemDefault();
        try {
            return ZoneId.of(tz.strip());
        } catch (DateTimeException e) {
            throw new RefusedException("tz \"" + tz + "\" is not a time zone; use a name such as Europe/Berlin or UTC");
        }
    }

    private Schedule schedule(ToolArguments args, ZoneId zone, Instant now, Duration minInterval)
            throws RefusedException {
        String cron = args.optionalString("cron", null);
        int every = args.optionalInt("every_minutes", 0, 1, 525_600);
        String at = args.optionalString("at", null);
        int given = (cron == null ? 0 : 1) + (every == 0 ? 0 : 1) + (at == null ? 0 : 1);
        if (given != 1) throw new RefusedException("give exactly one of cron, every_minutes or at (got " + given + ")");
        if (every > 0) {
            Duration period = Duration.ofMinutes(every);
            if (period.compareTo(minInterval) < 0) throw tooOften(period, minInterval);
            return new Schedule.Every(period, now);
        }
        if (at != null) return new Schedule.At(instant(at.strip(), zone));
        try {
            Schedule.Cron s = new Schedule.Cron(CronExpression.parse(cron), zone);
            checkGaps(s, now, minInterval);
            return s;
        } catch (IllegalArgumentException e) {
            throw new RefusedException(e.getMessage());
        }
    }

    private static void checkGaps(Schedule s, Instant now, Duration minInterval) throws RefusedException {
        Optional<Instant> previous = s.next(now);
        for (int i = 0; i < GAPS_CHECKED && previous.isPresent(); i++) {
            Optional<Instant> next = s.next(previous.get());
            if (next.isEmpty()) return;
            Duration gap = Duration.between(previous.get(), next.get());
            if (gap.compareTo(minInterval) < 0) throw tooOften(gap, minInterval);
            previous = next;
        }
    }

    private static RefusedException tooOften(Duration gap, Duration min) {
        return new RefusedException("that runs every " + gap.toMinutes() + " min; the shortest interval allowed is "
                + min.toMinutes() + " min (cron.min_interval)");
    }

    private static Instant instant(String at, ZoneId zone) throws RefusedException {
        try {
            return OffsetDateTime.parse(at).toInstant();
        } catch (DateTimeException offsetMissing) {
            try {
                return LocalDateTime.parse(at).atZone(zone).toInstant();
            } catch (DateTimeException e) {
                throw new RefusedException(
                        "at \"" + at + "\" is not an ISO-8601 time such as 2030-01-31T09:00:00+01:00");
            }
        }
    }
}
