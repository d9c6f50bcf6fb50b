package dev.clawgate.server.cli;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.config.ConfigFiles;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.store.Stores;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config FILE}, shared by every command (default ./clawgate.toml, or $CLAWGATE_CONFIG). */
final class ConfigOption {
    @Option(names = "--config", paramLabel = "FILE", description = "config file (default: $CLAWGATE_CONFIG or ./clawgate.toml)")
    String file;

    ClawgateConfig load() {
        return new ConfigLoader().load(ConfigFiles.locate(file, System.getenv()), System.getenv());
    }

    /** The store in the config's {@code gateway.data_dir}, for the commands that read or edit it. */
    Store openStore() {
        return Stores.open(null, load().gateway().dataDir());
    }

    Path path() {
        return ConfigFiles.resolvePath(file, System.getenv());
    }
}
