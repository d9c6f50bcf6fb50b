package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.ConfigWatcher;
import dev.clawgate.server.Gateway;
import dev.clawgate.server.GatewayOptions;
import dev.clawgate.server.telemetry.Telemetry;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import sun.misc.Signal;

/**
 * {@code clawgate run}: the gateway with its HTTP server, until stopped. SIGTERM and SIGINT stop it cleanly and the
 * exit code is 0 (README: 0 ok): a stop is not a failure, so a service manager does not report one (the JVM's own
 * handling exits 143 or 130).
 */
@Command(name = "run", description = "Start the gateway (OpenAI-compatible API on gateway.bind).")
final class RunCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws Exception {
        ClawgateConfig cfg = config.load();
        // SPEC OP-9: held until the JVM ends, so 'clawgate restore' never overwrites the data of this gateway
        DataDirLock held = DataDirLock.gateway(cfg.gateway().dataDir());
        // SPEC OP-9: traces only when [telemetry] otlp_endpoint is set; closed after the gateway, so its last spans go
        Telemetry telemetry = Telemetry.start(config.telemetry(), VersionProvider.version());
        Gateway gateway;
        try {
            gateway = Gateway.start(
                    cfg,
                    GatewayOptions.server()
                            .withConfigFile(config.path())
                            .withTelemetry(telemetry)
                            .withDeployment(config.deployment()));
        } catch (RuntimeException e) {
            telemetry.close();
            held.closeQuietly();
            throw e;
        }
        // SPEC RT-3: edits to the file take effect without a restart (a missing file means defaults: nothing to watch)
        ConfigWatcher watcher = java.nio.file.Files.exists(config.path())
                ? new ConfigWatcher(config.path(), gateway, System::getenv, Duration.ofSeconds(1)).start()
                : null;
        // SPEC OP-2: in a cluster, another node's reload makes this one re-read its own file
        if (watcher != null) gateway.followClusterReloads(watcher::followCluster);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        Runnable close = () -> {
            if (!closed.compareAndSet(false, true)) return;
            if (watcher != null) watcher.close();
            gateway.close();
            telemetry.close();
            held.closeQuietly();
        };
        for (String signal : new String[] {"TERM", "INT"}) Signal.handle(new Signal(signal), s -> stopped.countDown());
        // any other way the JVM ends (System.exit elsewhere, SIGHUP) still closes the gateway
        Runtime.getRuntime().addShutdownHook(new Thread(close, "clawgate-shutdown"));
        System.out.println(banner(cfg, gateway.httpPort()));
        stopped.await();
        close.run();
        return Main.OK;
    }

    /** Where to go: the Control UI, the chat page (when the web chat is on) and the API, at the port really bound. */
    static String banner(ClawgateConfig cfg, int port) {
        String base = "http://" + hostOf(cfg.gateway().bind()) + ":" + port;
        return "Clawgate is running: Control UI at " + base + "/, "
                + (Gateway.webChatEnabled(cfg) ? "web chat at " + base + "/chat, " : "")
                + "OpenAI-compatible API at " + base + "/v1 (Ctrl-C stops it)";
    }

    private static String hostOf(String bind) {
        return bind.substring(0, bind.lastIndexOf(':'));
    }
}
