package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.ConfigWatcher;
import dev.clawgate.server.Gateway;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clawgate run}: the gateway with its HTTP server, until stopped (SIGINT/SIGTERM). */
@Command(name = "run", description = "Start the gateway (OpenAI-compatible API on gateway.bind).")
final class RunCommand implements Callable<Integer> {
    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws Exception {
        ClawgateConfig cfg = config.load();
        Gateway gateway = Gateway.start(cfg, Gateway.Options.server());
        // SPEC RT-3: edits to the file take effect without a restart (a missing file means defaults: nothing to watch)
        ConfigWatcher watcher = java.nio.file.Files.exists(config.path())
                ? new ConfigWatcher(config.path(), gateway, System::getenv, Duration.ofSeconds(1)).start() : null;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (watcher != null) watcher.close();
            gateway.close();
            stopped.countDown();
        }, "clawgate-shutdown"));
        System.out.println("Clawgate is running: OpenAI-compatible API at http://" + hostOf(cfg.gateway().bind()) + ":"
                + gateway.httpPort() + "/v1 (Ctrl-C stops it)");
        stopped.await();
        return Main.OK;
    }

    private static String hostOf(String bind) {
        return bind.substring(0, bind.lastIndexOf(':'));
    }
}
