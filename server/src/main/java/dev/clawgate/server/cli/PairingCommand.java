package dev.clawgate.server.cli;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Store;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clawgate pairing list|approve|reject}: the owner's side of the pairing codes that unknown direct-message
 * senders get under {@code dm_policy = pairing} (SPEC IN-5).
 */
@Command(
        name = "pairing",
        description = "List, approve or reject pairing codes of unknown senders.",
        subcommands = {PairingCommand.ListCodes.class, PairingCommand.Approve.class, PairingCommand.Reject.class})
final class PairingCommand implements Runnable {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a pairing command: list, approve or reject");
    }

    static String describe(Pairing p) {
        return p.channel() + ":" + p.sender() + " (account " + p.account() + ")";
    }

    /** Exit 2 with one line: the code is not pending (never issued, expired or decided already). */
    static int notPending(CommandLine.Model.CommandSpec spec, String code) {
        spec.commandLine()
                .getErr()
                .println("clawgate: no pending pairing code " + Pairing.normaliseCode(code)
                        + " (unknown, expired or already decided); see 'clawgate pairing list'");
        return Main.USAGE;
    }

    @Command(
            name = "list",
            description = "List pending pairing codes (--all: also approved, rejected and expired ones).")
    static final class ListCodes implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--all", description = "include approved, rejected and expired codes")
        boolean all;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            List<Pairing> pairings;
            try (Store store = config.openStore()) {
                pairings = store.pairing().list(all);
            }
            PrintWriter out = spec.commandLine().getOut();
            if (pairings.isEmpty()) {
                out.println(all ? "No pairing codes." : "No pending pairing codes.");
            } else {
                out.printf(
                        "%-8s  %-9s  %-12s  %-16s  %-24s  %s%n",
                        "CODE", "STATUS", "CHANNEL", "ACCOUNT", "SENDER", "EXPIRES");
                for (Pairing p : pairings) {
                    out.printf(
                            "%-8s  %-9s  %-12s  %-16s  %-24s  %s%n",
                            p.code(),
                            p.status().wireName(),
                            p.channel(),
                            p.account(),
                            p.sender(),
                            TIME.format(p.expiresAt()));
                }
            }
            out.flush();
            return Main.OK;
        }
    }

    @Command(name = "approve", description = "Approve a pending code: its sender may talk to the agent from now on.")
    static final class Approve implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "CODE", description = "the code the sender was given")
        String code;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            Optional<Pairing> approved;
            try (Store store = config.openStore()) {
                approved = store.pairing().approve(code, Instant.now());
            }
            if (approved.isEmpty()) {
                return notPending(spec, code);
            }
            spec.commandLine()
                    .getOut()
                    .println("Approved " + approved.get().code() + ": " + describe(approved.get())
                            + " may now talk to the agent.");
            spec.commandLine().getOut().flush();
            return Main.OK;
        }
    }

    @Command(name = "reject", description = "Reject a pending code.")
    static final class Reject implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "CODE", description = "the code the sender was given")
        String code;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            Optional<Pairing> rejected;
            try (Store store = config.openStore()) {
                rejected = store.pairing().reject(code);
            }
            if (rejected.isEmpty()) {
                return notPending(spec, code);
            }
            spec.commandLine()
                    .getOut()
                    .println("Rejected " + rejected.get().code() + " of " + describe(rejected.get()) + ".");
            spec.commandLine().getOut().flush();
            return Main.OK;
        }
    }
}
