package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.config.ConfigFiles;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.server.config.ConfigLocation;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.server.logging.StderrLogging;
import dev.clawgate.server.telemetry.TelemetrySettings;
import dev.clawgate.store.Stores;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * The config file of the command it is mixed into: the global {@code --config FILE} ({@link Main#configFile}, inherited
 * by every command, so it may come before or after the command name), else $CLAWGATE_CONFIG, else ./clawgate.toml.
 */
@CommandLine.Command
final class ConfigOption {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    private String file() {
        Object root = mixee == null ? null : mixee.root().userObject();
        return root instanceof Main m ? m.configFile : null;
    }

    ClawgateConfig load() {
        ConfigLoader loader = new ConfigLoader();
        ConfigLocation location = ConfigFiles.locate(file(), System.getenv());
        ClawgateConfig config = loader.load(location, System.getenv());
        // SPEC OP-9: logging.format, from here on for the rest of the command
        StderrLogging.use(loader.logFormat(location, System.getenv()));
        return config;
    }

    /** {@code [telemetry]} (SPEC OP-9), read once {@link #load} accepted the file. */
    TelemetrySettings telemetry() {
        return new ConfigLoader().telemetry(ConfigFiles.locate(file(), System.getenv()), System.getenv());
    }

    /** The store {@code [store]} names (SQLite in {@code gateway.data_dir} by default), for the commands. */
    Store openStore() {
        ClawgateConfig cfg = load();
        Deployment where = deployment();
        return where.clustered()
                ? Stores.openPostgres(where.store().url(), 2, where.store().connectTimeout(), "")
                : Stores.open(where.store().url(), cfg.gateway().dataDir());
    }

    /** {@code [store]} and {@code [cluster]} of the config (SPEC OP-1, OP-2). */
    Deployment deployment() {
        return new ConfigLoader().deployment(ConfigFiles.locate(file(), System.getenv()), System.getenv());
    }

    Path path() {
        return ConfigFiles.resolvePath(file(), System.getenv());
    }
}
