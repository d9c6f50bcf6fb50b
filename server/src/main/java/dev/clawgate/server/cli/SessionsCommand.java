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
            var all = store.transcripts().sessions();
            // a session without stored messages is no conversation: a stateless API call's (SPEC CH-10, it keeps only
            // the
            // inbox record IN-4 needs) or one cleared by /new; counted, not listed
            var sessions = all.stream().filter(s -> s.messageCount() > 0).toList();
            if (sessions.isEmpty()) out.println("No sessions yet.");
            // the first column as wide as the longest id, so long ids never push the others out of line
            int width = sessions.stream()
                    .mapToInt(s -> s.key().display().length())
                    .max()
                    .orElse(0);
            for (SessionSummary s : sessions) {
                out.printf(
                        "%-" + width + "s  %5d messages  last %s%n",
                        s.key().display(),
                        s.messageCount(),
                        s.lastActivity());
            }
            int empty = all.size() - sessions.size();
            if (empty > 0) {
                out.println(
                        "(" + empty + " more with no stored messages: stateless API calls or cleared conversations)");
            }
        }
        return Main.OK;
    }
}
