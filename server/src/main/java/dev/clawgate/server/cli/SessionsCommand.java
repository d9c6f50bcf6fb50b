package dev.clawgate.server.cli;

import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.core.store.Store;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clawgate sessions}: lists the stored sessions (SPEC OP-4). */
@Command(name = "sessions", description = "List stored sessions.")
final class SessionsCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Store store = config.openStore()) {
            var out = spec.commandLine().getOut();
            var sessions = store.sessions();
            if (sessions.isEmpty()) out.println("No sessions yet.");
            for (SessionSummary s : sessions) {
                out.printf("%-50s %5d messages  last %s%n", s.key().display(), s.messageCount(), s.lastActivity());
            }
        }
        return Main.OK;
    }
}
