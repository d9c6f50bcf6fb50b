package dev.clawgate.server.cli;

import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.internal.tool.builtin.sandbox.SandboxFinding;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.Store;
import dev.clawgate.mcp.McpServerState;
import dev.clawgate.mcp.McpServerStatus;
import dev.clawgate.mcp.McpServers;
import dev.clawgate.server.ConfiguredProviders;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.store.Stores;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code clawgate doctor} (SPEC OP-4): checks the config, the store, each provider (one real call to its model list),
 * each configured channel and the shell tool's sandbox (AG-8: it runs a command in it) and each MCP server (AG-7:
 * started once, its state and tools), and prints each problem with its fix on one line. Exit 0 when all is well, 1 when
 * something needs fixing, 2 when the config does not load; a warning (the shell runs with less protection than
 * intended) or a note is printed but does not fail the check.
 */
@Command(name = "doctor", description = "Check the config, the store, the providers and the channels; say what to fix.")
final class DoctorCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private int problems;
    private PrintWriter out;

    private void ok(String what) {
        out.println("ok       " + what);
    }

    /** Worth a look, but nothing to fix: does not fail the check. */
    private void note(String what) {
        out.println("note     " + what);
    }

    private void warning(String what, String fix) {
        out.println("warning  " + what + "\n         fix: " + fix);
    }

    private void problem(String what, String fix) {
        problems++;
        out.println("PROBLEM  " + what + "\n         fix: " + fix);
    }

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        ClawgateConfig cfg;
        try {
            cfg = config.load();
            ok("config " + config.path() + " loads");
        } catch (ConfigException e) {
            problem(
                    "config: " + e.getMessage(),
                    "edit the file as the message says ('clawgate init' writes a commented example)");
            out.flush();
            // README: a config error is exit 2, from every command
            return Main.USAGE;
        }
        checkStore(cfg);
        checkProviders(cfg);
        checkChannels(cfg);
        checkShellSandbox(cfg);
        checkMcpServers(cfg);
        checkMemoryRecall(cfg);
        out.println(
                problems == 0 ? "All checks passed." : problems + " problem" + (problems == 1 ? "" : "s") + " found.");
        out.flush();
        return problems == 0 ? Main.OK : Main.FAILURE;
    }

    private void checkStore(ClawgateConfig cfg) {
        dev.clawgate.server.config.Deployment where;
        try {
            where = config.deployment();
        } catch (ConfigException e) {
            problem("store: " + e.getMessage(), "fix [store] / [cluster] in the config");
            return;
        }
        if (where.clustered()) {
            new ClusterCheck(where, this::ok, this::problem).run();
            return;
        }
        java.nio.file.Path dir = cfg.gateway().dataDir();
        // opening would create the data dir and run the migrations: a check must change nothing
        if (!java.nio.file.Files.exists(dir.resolve(Stores.DEFAULT_FILE_NAME))) {
            ok("store in " + dir + " not created yet; it is created on first run");
            return;
        }
        try (Store store = Stores.open(null, dir)) {
            if (store.healthy()) ok("store in " + dir + " opens and answers");
            else problem("store in " + dir + " does not answer", "check the disk and the file permissions there");
            // SPEC IN-4, CH-0: poison messages were kept and skipped; an operator should know they came
            var unreadable = store.inbox().unreadable(dev.clawgate.core.store.InboxBook.UNREADABLE_KEPT);
            if (!unreadable.isEmpty()) {
                var newest = unreadable.getFirst();
                note(unreadable.size() + " inbound update" + (unreadable.size() == 1 ? "" : "s")
                        + " could not be read and were recorded as failed, then skipped; newest: " + newest.channel()
                        + " " + newest.platformRef() + " (" + newest.reason() + "). See 'clawgate inbox'");
            }
        } catch (RuntimeException e) {
            problem(
                    "store in " + dir + ": " + e.getMessage(),
                    "make gateway.data_dir a writable folder (or free disk space)");
        }
    }

    private void checkProviders(ClawgateConfig cfg) {
        if (cfg.providers().isEmpty()) {
            problem(
                    "no provider is configured",
                    "add a [providers.<name>] table with kind, base_url, api_key and model");
            return;
        }
        ConfiguredProviders built;
        try {
            built = new ConfiguredProviders(cfg.providers());
        } catch (IllegalArgumentException e) {
            problem(e.getMessage(), "use one of the known kinds in providers.<name>.kind");
            return;
        }
        for (ProviderSettings s : cfg.providers().values()) {
            String what = "provider '" + s.name() + "' (" + s.kind() + (s.baseUrl() == null ? "" : " at " + s.baseUrl())
                    + ")";
            var provider = built.find(s.name());
            if (provider.isEmpty() && s.unconfigured() != null) {
                problem(
                        what + " is not configured: " + s.unconfigured(),
                        "export the variable, or remove providers." + s.name() + ".api_key if the server needs no key");
                continue;
            }
            if (provider.isEmpty()) {
                problem(
                        what + " has no api_key",
                        "set providers." + s.name() + ".api_key (for example \"${OPENAI_API_KEY}\") and export it");
                continue;
            }
            probe(what, s, provider.get());
        }
    }

    private void probe(String what, ProviderSettings s, Provider provider) {
        try {
            List<String> models = provider.listModels(CancelToken.none());
            ok(what + " answers" + (models.isEmpty() ? "" : " (" + models.size() + " models)"));
        } catch (ProviderException e) {
            switch (e.kind()) {
                case AUTH ->
                    problem(what + " refused the API key", "set a valid key in providers." + s.name() + ".api_key");
                case TRANSIENT, RATE_LIMITED ->
                    problem(
                            what + " is unreachable: " + e.getMessage(),
                            "check providers." + s.name()
                                    + ".base_url and that the server is running and reachable from here");
                default ->
                    problem(
                            what + " answered with an error: " + e.getMessage(),
                            "check providers." + s.name() + ".base_url and .model");
            }
        }
    }

    /** SPEC AG-8: whether the shell tool is offered, in what, and which of its limits hold here. */
    private void checkShellSandbox(ClawgateConfig cfg) {
        List<java.nio.file.Path> hidden = List.of(cfg.gateway().dataDir(), config.path());
        for (SandboxFinding f : ShellSandboxes.select(cfg.tools(), hidden).findings()) {
            switch (f.level()) {
                case OK -> ok(f.what());
                case WARNING -> warning(f.what(), f.fix());
                case PROBLEM -> problem(f.what(), f.fix());
            }
        }
    }

    /**
     * SPEC ME-5: which recall mode a gateway would run in, how far the vector back-fill has got, and how each scope
     * past {@code memory.ann_threshold} is searched (the indexes live in the gateway's heap; this JVM has the same
     * options, so a scope too large for its share here is too large there).
     */
    private void checkMemoryRecall(ClawgateConfig cfg) {
        if (!cfg.memory().enabled()) {
            ok("memory is off (memory.enabled = false): no recall");
            return;
        }
        Embedders.Selection mode = Embedders.select(cfg.memory().embedding(), cfg.providers());
        try {
            if (mode.fault()) {
                warning(
                        "memory recall: " + mode.mode(),
                        "set memory.embedder to \"local\", \"none\" or the name of a provider that serves "
                                + "/v1/embeddings");
                return;
            }
            if (mode.embedder().isEmpty()) {
                note("memory recall: " + mode.mode());
                return;
            }
            ok("memory recall: " + mode.mode());
            java.nio.file.Path dir = cfg.gateway().dataDir();
            if (!java.nio.file.Files.exists(dir.resolve(Stores.DEFAULT_FILE_NAME))) return;
            try (Store store = Stores.open(null, dir)) {
                String modelId = mode.embedder().get().modelId();
                var p = store.memory().vectors().progress(modelId);
                String line = "memory vectors: " + p.embedded() + " of " + p.entries() + " memories embedded";
                if (p.missing() == 0) ok(line);
                else note(line + "; the running gateway embeds the other " + p.missing() + " in the background");
                int threshold = cfg.memory().embedding().annThreshold();
                for (var large : store.memory().vectors().largeScopes(modelId, threshold)) largeScope(large, threshold);
            }
        } catch (RuntimeException e) {
            problem("memory vectors: " + e.getMessage(), "make gateway.data_dir a readable folder");
        } finally {
            mode.embedder().ifPresent(dev.clawgate.core.embedding.Embedder::close);
        }
    }

    /** SPEC ME-5: how recall searches one scope past memory.ann_threshold; too large for the heap is a warning. */
    private void largeScope(dev.clawgate.core.memory.MemoryVectors.LargeScope large, int threshold) {
        String what = "memory scope " + large.scope() + ": " + large.vectors() + " vectors (memory.ann_threshold = "
                + threshold + ")";
        switch (large.search()) {
            case INDEX_READY -> ok(what + ", searched through its HNSW index");
            case INDEX_BUILDING -> note(what + ", its HNSW index is being built; searched exactly until it is ready");
            case EXACT_NOT_BUILT ->
                ok(what + ", searched through an HNSW index the gateway builds in the background at start"
                        + " (exactly until it is ready; 'clawgate status' says when it is)");
            case EXACT_TOO_LARGE ->
                warning(
                        what + ", searched exactly: its HNSW index would take more than a third of the heap",
                        "raise -Xmx (conf/jvm.options or CLAWGATE_JAVA_OPTS) to have it indexed, or lower"
                                + " memory.max_entries_per_scope");
        }
    }

    /** SPEC AG-7: each MCP server is started once, asked for its tools and stopped again; its state and tools. */
    private void checkMcpServers(ClawgateConfig cfg) {
        for (McpServerStatus s : McpServers.probe(cfg.mcp())) {
            String what = "mcp server '" + s.name() + "' (" + s.where() + ")";
            if (s.state() == McpServerState.READY) {
                ok(what + " ready, " + s.tools().size() + " tool" + (s.tools().size() == 1 ? "" : "s")
                        + (s.tools().isEmpty() ? "" : ": " + String.join(", ", s.tools())));
                if (s.tools().isEmpty()) {
                    warning(
                            what + " offers no tool",
                            "check mcp.servers." + s.name() + ".tools against the server's tool names");
                }
            } else {
                problem(
                        what + " is not ready: " + s.problem(),
                        "check mcp.servers." + s.name() + " (command and args, or url and headers) and run it by hand");
            }
        }
    }

    private void checkChannels(ClawgateConfig cfg) {
        Map<String, ChannelFactory> factories = new LinkedHashMap<>();
        for (ChannelFactory f : ServiceLoader.load(ChannelFactory.class)) factories.put(f.name(), f);
        for (ChannelSettings c : cfg.channels().values()) {
            ChannelFactory f = factories.get(c.name());
            if (f == null) {
                if (!dev.clawgate.server.config.ChannelKeys.serverChannels().contains(c.name())) {
                    problem(
                            "channel '" + c.name() + "' has no module here",
                            "remove [channels." + c.name() + "] or add its module");
                } else {
                    ok("channel '" + c.name() + "' (served by the gateway itself)");
                }
                continue;
            }
            for (ChannelProbe.Finding finding : f.probe(c).findings()) {
                if (finding.ok()) ok("channel " + c.name() + ": " + finding.what());
                else problem("channel " + c.name() + ": " + finding.what(), finding.fix());
            }
        }
    }
}
