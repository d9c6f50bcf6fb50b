package dev.clawgate.server.cli;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.store.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clawgate memory list|search|forget} (SPEC OP-4): what the agent remembers, per scope ({@code global},
 * {@code sender:<channel>:<sender>}, or a stored scope id), and the owner's way to make it forget.
 */
@Command(
        name = "memory",
        description = "List, search or forget what the agent remembers.",
        subcommands = {MemoryCommand.ListEntries.class, MemoryCommand.Search.class, MemoryCommand.Forget.class})
final class MemoryCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a memory command: list, search or forget");
    }

    /**
     * {@code global}, {@code sender:<channel>:<sender>}, or a stored scope id as 'clawgate memory search' prints it.
     */
    static MemoryScope scope(CommandLine.Model.CommandSpec spec, String raw) {
        if (raw.startsWith("sender:")) {
            String[] parts = raw.split(":", 3);
            if (parts.length == 3 && !parts[1].isEmpty() && !parts[2].isEmpty())
                return MemoryScope.sender(parts[1], parts[2]);
        }
        try {
            return MemoryScope.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "'" + raw
                            + "' is not a memory scope; use global, sender:<channel>:<sender>, or a scope id from "
                            + "'clawgate memory search'");
        }
    }

    static void print(PrintWriter out, MemoryEntry e, String score) {
        String content = e.content().replace('\n', ' ');
        out.printf(
                "%-28s  %-12s  %-6s  %-30s  %s%n",
                e.key(),
                e.category(),
                score,
                e.scope(),
                content.length() > 100 ? content.substring(0, 100) + "…" : content);
    }

    @Command(name = "list", description = "The newest memories of one scope (default: global).")
    static final class ListEntries implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--scope", description = "global (default), sender:<channel>:<sender>, or a scope id")
        String scope = "global";

        @Option(names = "--limit", description = "how many (default 50)")
        int limit = 50;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            MemoryScope s = scope(spec, scope);
            try (Store store = config.openStore()) {
                List<MemoryEntry> entries = store.memory().list(s, Math.max(1, limit));
                PrintWriter out = spec.commandLine().getOut();
                if (entries.isEmpty()) out.println("No memories in " + s + ".");
                for (MemoryEntry e : entries) print(out, e, "");
            }
            return Main.OK;
        }
    }

    @Command(
            name = "search",
            description = "Keyword recall across scopes, with scores in [0, 1] and each memory's scope.")
    static final class Search implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "WORDS", arity = "1..*")
        List<String> words;

        @Option(names = "--scope", split = ",", description = "scopes to search (default: global)")
        List<String> scopes = List.of("global");

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            List<MemoryScope> s = scopes.stream().map(x -> scope(spec, x)).toList();
            try (Store store = config.openStore()) {
                List<Recalled> found = store.memory().recall(String.join(" ", words), s, 20);
                PrintWriter out = spec.commandLine().getOut();
                if (found.isEmpty()) out.println("Nothing recalled.");
                for (Recalled r : found) print(out, r.entry(), String.format("%.2f", r.score()));
            }
            return Main.OK;
        }
    }

    @Command(name = "forget", description = "Forget one memory by its key.")
    static final class Forget implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "KEY")
        String key;

        @Option(names = "--scope", description = "the memory's scope (default: global)")
        String scope = "global";

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            MemoryScope s = scope(spec, scope);
            try (Store store = config.openStore()) {
                if (store.memory().forget(s, key)) {
                    spec.commandLine().getOut().println("Forgot " + key + " in " + s + ".");
                    return Main.OK;
                }
            }
            spec.commandLine()
                    .getErr()
                    .println("clawgate: no memory " + key + " in " + s + "; see 'clawgate memory list --scope " + scope
                            + "'");
            return Main.USAGE;
        }
    }
}
