package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.memory.HybridHit;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
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
    /** How many hits a search shows. */
    static final int LIMIT = 20;

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
            description = "Recall across scopes as a turn does (hybrid when an embedder is configured), with scores in"
                    + " [0, 1] and each memory's scope.")
    static final class Search implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "WORDS", arity = "1..*")
        List<String> words;

        @Option(names = "--scope", split = ",", description = "scopes to search (default: global)")
        List<String> scopes = List.of("global");

        @Option(
                names = "--explain",
                description = "show each hit's keyword rank and score, vector similarity and fused score (SPEC ME-5)")
        boolean explain;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            List<MemoryScope> s = scopes.stream().map(x -> scope(spec, x)).toList();
            ClawgateConfig cfg = config.load();
            PrintWriter out = spec.commandLine().getOut();
            Embedders.Selection mode = Embedders.select(cfg.memory().embedding(), cfg.providers());
            try (Store store = Stores.open(null, cfg.gateway().dataDir())) {
                String query = String.join(" ", words);
                if (explain) out.println("recall: " + mode.mode());
                if (mode.embedder().isEmpty()) {
                    List<Recalled> found = store.memory().recall(query, s, LIMIT);
                    if (found.isEmpty()) out.println("Nothing recalled.");
                    for (Recalled r : found) print(out, r.entry(), String.format("%.2f", r.score()));
                    return Main.OK;
                }
                HybridMemory hybrid =
                        new HybridMemory(store.memory(), mode.embedder().get(), cfg::memory);
                List<HybridHit> hits = hybrid.explain(query, s, LIMIT, true);
                if (hits.isEmpty()) out.println("Nothing recalled.");
                if (explain && !hits.isEmpty())
                    out.printf(
                            "%-28s  %-6s  %-7s  %-8s  %-6s  %s%n",
                            "KEY", "FUSED", "KW RANK", "KW SCORE", "COSINE", "CONTENT");
                for (HybridHit h : hits) {
                    if (explain) explain(out, h);
                    else print(out, h.entry(), String.format("%.2f", h.score()));
                }
            } finally {
                mode.embedder().ifPresent(dev.clawgate.core.embedding.Embedder::close);
            }
            return Main.OK;
        }

        private static void explain(PrintWriter out, HybridHit h) {
            String content = h.entry().content().replace('\n', ' ');
            out.printf(
                    "%-28s  %-6s  %-7s  %-8s  %-6s  %s%n",
                    h.entry().key(),
                    String.format("%.2f", h.score()),
                    h.keywordRank() == 0 ? "-" : Integer.toString(h.keywordRank()),
                    h.keywordRank() == 0 ? "-" : String.format("%.2f", h.keywordScore()),
                    h.hasVector() ? String.format("%.3f", h.cosine()) : "-",
                    content.length() > 80 ? content.substring(0, 80) + "…" : content);
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
