package dev.clawgate.server.cli;

import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.store.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code clawgate cron list|remove}: the owner's view of every scheduled task (SPEC AG-5, OP-4). */
@Command(
        name = "cron",
        description = "List or remove the agent's scheduled tasks.",
        subcommands = {CronCommand.ListJobs.class, CronCommand.Remove.class})
final class CronCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a cron command: list or remove");
    }

    @Command(name = "list", description = "List every scheduled task, whoever scheduled it.")
    static final class ListJobs implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            List<CronJob> jobs;
            try (Store store = config.openStore()) {
                jobs = store.cron().all();
            }
            PrintWriter out = spec.commandLine().getOut();
            if (jobs.isEmpty()) {
                out.println("No scheduled tasks.");
                return Main.OK;
            }
            out.printf("%-6s  %-36s  %-24s  %-34s  %s%n", "ID", "CONVERSATION", "NEXT RUN", "SCHEDULE", "PROMPT");
            for (CronJob j : jobs) {
                String prompt = j.prompt().replaceAll("\\s+", " ");
                out.printf(
                        "%-6d  %-36s  %-24s  %-34s  %s%n",
                        j.id(),
                        j.session().display() + " by " + j.target().sender(),
                        j.nextFireAt() == null ? "-" : j.nextFireAt().toString(),
                        j.schedule().describe(),
                        prompt.length() <= 60 ? prompt : prompt.substring(0, 57) + "...");
            }
            return Main.OK;
        }
    }

    @Command(name = "remove", description = "Remove a scheduled task by its id.")
    static final class Remove implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(index = "0", description = "the task's id, as 'clawgate cron list' shows it")
        long id;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            boolean removed;
            try (Store store = config.openStore()) {
                removed = store.cron().remove(id);
            }
            if (!removed) {
                spec.commandLine().getErr().println("clawgate: no scheduled task " + id + "; see 'clawgate cron list'");
                return Main.USAGE;
            }
            spec.commandLine().getOut().println("Removed scheduled task " + id + ".");
            return Main.OK;
        }
    }
}
