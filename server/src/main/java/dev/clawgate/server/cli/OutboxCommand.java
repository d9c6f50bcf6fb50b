package dev.clawgate.server.cli;

import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clawgate outbox}: what the write-ahead outbox holds (SPEC OUT-7), above all the replies that may or may not
 * have reached their platform ({@code unknown_after_send}), and an operator's resend of one of them.
 */
@Command(
        name = "outbox",
        description = "Show the outbox: counts per state and the replies that need a look; resend one.",
        subcommands = {OutboxCommand.ListEntries.class, OutboxCommand.Resend.class})
final class OutboxCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    /** What an operator should look at: never sent, or not known to be. */
    static final EnumSet<OutboxState> ATTENTION = EnumSet.of(
            OutboxState.UNKNOWN_AFTER_SEND,
            OutboxState.FAILED,
            OutboxState.PARTIAL_FAILED,
            OutboxState.EXPIRED,
            OutboxState.POSSIBLY_DUPLICATED,
            OutboxState.PENDING);

    @Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Store store = config.openStore()) {
            Map<OutboxState, Long> counts = store.outbox().counts();
            out.println("Outbox entries by state:");
            for (var c : counts.entrySet())
                out.printf("  %-20s %d%n", c.getKey().wireName(), c.getValue());
            List<OutboxEntry> attention = store.outbox().byState(ATTENTION.toArray(OutboxState[]::new));
            if (attention.isEmpty()) {
                out.println("Nothing needs a look.");
            } else {
                out.println();
                print(out, attention);
                if (counts.get(OutboxState.UNKNOWN_AFTER_SEND) > 0) {
                    out.println();
                    out.println("unknown_after_send: the gateway stopped during the send and the channel cannot tell "
                            + "whether it arrived;"
                            + " it was not resent. 'clawgate outbox resend ID' sends it again (it may then "
                            + "arrive twice).");
                }
            }
        }
        return Main.OK;
    }

    static void print(PrintWriter out, List<OutboxEntry> entries) {
        out.printf(
                "%-6s  %-20s  %-8s  %-10s  %-24s  %-23s  %s%n",
                "ID", "STATE", "TURN", "CHANNEL", "TO", "UPDATED", "DETAIL");
        for (OutboxEntry e : entries) {
            out.printf(
                    "%-6d  %-20s  %-8d  %-10s  %-24s  %-23s  %s%n",
                    e.id(),
                    e.state().wireName(),
                    e.turnId(),
                    e.draft().channel(),
                    e.draft().replyTarget(),
                    TIME.format(e.updatedAt()),
                    e.detail() == null ? "" : e.detail());
        }
    }

    @Command(name = "list", description = "List outbox entries (default: those that need a look).")
    static final class ListEntries implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--state", split = ",", description = "only these states, e.g. --state sent,failed")
        List<String> states;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            EnumSet<OutboxState> wanted = EnumSet.noneOf(OutboxState.class);
            if (states == null || states.isEmpty()) {
                wanted.addAll(ATTENTION);
            } else {
                for (String s : states) {
                    try {
                        wanted.add(OutboxState.fromWire(s.strip()));
                    } catch (IllegalArgumentException bad) {
                        throw new CommandLine.ParameterException(
                                spec.commandLine(),
                                "unknown outbox state '" + s + "'; use one of "
                                        + String.join(
                                                ", ",
                                                EnumSet.allOf(OutboxState.class).stream()
                                                        .map(OutboxState::wireName)
                                                        .toList()));
                    }
                }
            }
            try (Store store = config.openStore()) {
                List<OutboxEntry> entries = store.outbox().byState(wanted.toArray(OutboxState[]::new));
                PrintWriter out = spec.commandLine().getOut();
                if (entries.isEmpty())
                    out.println("No outbox entries in "
                            + wanted.stream().map(OutboxState::wireName).toList() + ".");
                else print(out, entries);
            }
            return Main.OK;
        }
    }

    @Command(
            name = "resend",
            description = "Send a failed, expired or unknown_after_send reply again (it may arrive twice).")
    static final class Resend implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "ID", description = "the outbox entry id, from 'clawgate outbox'")
        long id;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = config.openStore()) {
                OutboxEntry e = new Outbox(store, Clock.systemUTC()).resend(id);
                spec.commandLine()
                        .getOut()
                        .println("Outbox entry " + id + " (turn " + e.turnId() + " to "
                                + e.draft().channel()
                                + ") is pending again; the running gateway sends it within seconds, or the "
                                + "next start does.");
                return Main.OK;
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("clawgate: " + e.getMessage() + "; see 'clawgate outbox'");
                return Main.USAGE;
            }
        }
    }
}
