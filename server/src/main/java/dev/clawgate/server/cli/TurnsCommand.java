package dev.clawgate.server.cli;

import dev.clawgate.core.inspect.TurnPhase;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.core.store.Store;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clawgate turns}: the turn inspector's records (SPEC OP-8), one turn per line or one turn phase by phase. */
@Command(
        name = "turns",
        description = "Show recorded turns: 'turns list' one per line, 'turns show ID' phase by phase.",
        subcommands = {TurnsCommand.ListTurns.class, TurnsCommand.Show.class})
final class TurnsCommand implements Callable<Integer> {
    static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final Pattern AGO = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return Main.OK;
    }

    @Command(name = "list", description = "List recorded turns, newest first, one per line, the turn id first.")
    static final class ListTurns implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(
                names = "--session",
                paramLabel = "S",
                description = "only this session, as 'clawgate sessions' names it")
        String session;

        @Option(
                names = "--since",
                paramLabel = "T",
                description = "only turns since T: an instant (2026-01-31T10:00:00Z) or an age (30m, 2h, 1d)")
        String since;

        @Option(names = "--limit", defaultValue = "50", description = "at most this many (default 50)")
        int limit;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            Instant from = since == null ? null : parseSince(since, Instant.now(), spec);
            try (Store store = config.openStore()) {
                List<TurnSummary> turns = store.turns().list(session, from, limit);
                PrintWriter out = spec.commandLine().getOut();
                if (turns.isEmpty()) {
                    out.println("No recorded turns" + (session == null ? "" : " in session " + session) + ".");
                }
                for (TurnSummary t : turns) out.println(line(t));
            }
            return Main.OK;
        }
    }

    @Command(name = "show", description = "Show one turn phase by phase, with each phase's start and duration.")
    static final class Show implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "ID", description = "the turn id, from 'clawgate turns list'")
        long id;

        @Option(names = "--prompt", description = "also print the full prompt, when inspector.keep_prompts kept it")
        boolean prompt;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = config.openStore()) {
                Optional<TurnTrace> found = store.turns().find(id);
                if (found.isEmpty()) {
                    spec.commandLine()
                            .getErr()
                            .println("clawgate: no recorded turn " + id
                                    + " (pruned after inspector.retention?); see 'clawgate turns list'");
                    return Main.USAGE;
                }
                print(spec.commandLine().getOut(), found.get(), prompt);
            }
            return Main.OK;
        }
    }

    /** {@code ID STARTED DURATION OUTCOME inbox N SESSION "preview"}. */
    static String line(TurnSummary t) {
        return String.format(
                Locale.ROOT,
                "%-6d  %s  %9s  %-9s  inbox %-6d  %s  \"%s\"",
                t.id(),
                TIME.format(t.startedAt()),
                millis(t.duration()),
                t.outcome(),
                t.inboxId(),
                t.session().display(),
                t.preview());
    }

    static void print(PrintWriter out, TurnTrace trace, boolean withPrompt) {
        TurnSummary t = trace.summary();
        out.printf(
                Locale.ROOT,
                "Turn %d  %s  %s in %s%n",
                t.id(),
                TIME.format(t.startedAt()),
                t.outcome(),
                millis(t.duration()));
        out.printf(
                Locale.ROOT,
                "  session %s  (channel %s, account %s)  inbox %d%n",
                t.session().display(),
                t.channel(),
                t.account(),
                t.inboxId());
        out.printf(Locale.ROOT, "  %10s  %10s  %-11s  %s%n", "START", "DURATION", "PHASE", "DETAIL");
        for (TurnPhase p : trace.phases()) {
            out.printf(
                    Locale.ROOT,
                    "  %10s  %10s  %-11s  %s%n",
                    "+" + millis(p.start()),
                    millis(p.duration()),
                    p.name(),
                    p.detail());
        }
        if (withPrompt) {
            out.println(
                    trace.prompt() == null ? "(no prompt kept: set inspector.keep_prompts = true)" : trace.prompt());
        }
    }

    /** Milliseconds with three decimals, e.g. {@code 12.345 ms}. */
    static String millis(Duration d) {
        return String.format(Locale.ROOT, "%.3f ms", d.toNanos() / 1_000_000.0);
    }

    static Instant parseSince(String text, Instant now, CommandLine.Model.CommandSpec spec) {
        Matcher ago = AGO.matcher(text.strip());
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            Duration unit = switch (ago.group(2)) {
                case "ms" -> Duration.ofMillis(1);
                case "s" -> Duration.ofSeconds(1);
                case "m" -> Duration.ofMinutes(1);
                case "h" -> Duration.ofHours(1);
                default -> Duration.ofDays(1);
            };
            return now.minus(unit.multipliedBy(n));
        }
        try {
            return Instant.parse(text.strip());
        } catch (java.time.format.DateTimeParseException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--since takes an instant like 2026-01-31T10:00:00Z or an age like 30m, 2h, 1d; got '" + text
                            + "'");
        }
    }
}
