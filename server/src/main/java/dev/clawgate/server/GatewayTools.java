package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.tool.builtin.BuiltinTools;
import dev.clawgate.core.internal.tool.builtin.sandbox.SandboxFinding;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxStatus;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's built-in tools, built from a config at start and again at each reload (SPEC RT-3): the shell in its
 * sandbox (AG-8), whose findings are logged when they change, and the cron tools (AG-5).
 */
final class GatewayTools {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final AtomicReference<ClawgateConfig> config;
    private final Store store;
    private final PublicWeb web;
    private final Path configFile;
    private final Runnable cronChanged;
    private List<SandboxFinding> shellFindings = List.of();

    GatewayTools(
            AtomicReference<ClawgateConfig> config, Store store, PublicWeb web, Path configFile, Runnable cronChanged) {
        this.config = config;
        this.store = store;
        this.web = web;
        this.configFile = configFile;
        this.cronChanged = cronChanged;
    }

    /** The built-in tools of {@code cfg}, the cron tools included (SPEC AG-5), the shell in its sandbox (AG-8). */
    ToolRegistry toolsFor(ClawgateConfig cfg) {
        List<Path> hidden = new ArrayList<>(List.of(cfg.gateway().dataDir()));
        if (configFile != null) hidden.add(configFile);
        ShellSandboxStatus shell = ShellSandboxes.select(cfg.tools(), hidden);
        logShellSandbox(shell);
        List<dev.clawgate.core.tool.Tool> all =
                new ArrayList<>(BuiltinTools.create(cfg.tools(), cfg.memory(), shell, web));
        all.addAll(BuiltinTools.cron(
                store.cron(), cfg.cron(), () -> config.get().cron(), Clock.systemUTC(), this::cronChanged));
        return new ToolRegistry(all);
    }

    /** SPEC AG-8: what the shell runs in, and each limit that does not hold; said at start, again when it changes. */
    private void logShellSandbox(ShellSandboxStatus shell) {
        if (shell.findings().equals(shellFindings)) return;
        shellFindings = shell.findings();
        for (SandboxFinding f : shell.findings()) {
            switch (f.level()) {
                case OK -> log.info("{}", f.what());
                case WARNING, PROBLEM -> log.warn("{}; to fix: {}", f.what(), f.fix());
            }
        }
    }

    /** What a turn may use (SPEC AG-5, AG-7): the built-in tools, then those of the MCP servers ready now. */
    static ToolRegistry withServerTools(ToolRegistry builtin, List<dev.clawgate.core.tool.Tool> remote) {
        if (remote.isEmpty()) return builtin;
        List<dev.clawgate.core.tool.Tool> all = new ArrayList<>(builtin.all());
        for (dev.clawgate.core.tool.Tool t : remote) if (!builtin.names().contains(t.name())) all.add(t);
        return new ToolRegistry(all);
    }

    private void cronChanged() {
        cronChanged.run();
    }
}
