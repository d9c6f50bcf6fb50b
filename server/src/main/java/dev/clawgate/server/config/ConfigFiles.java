package dev.clawgate.server.config;

import java.nio.file.Path;
import java.util.Map;

/** Finds the config file: {@code --config FILE}, else {@code $CLAWGATE_CONFIG}, else {@code ./clawgate.toml}. */
public final class ConfigFiles {
    public static final String ENV_VAR = "CLAWGATE_CONFIG";
    public static final String DEFAULT_NAME = "clawgate.toml";

    private ConfigFiles() {}

    /** @param cliOption the {@code --config} value, or null when not given */
    public static Path resolvePath(String cliOption, Map<String, String> env) {
        return locate(cliOption, env).path();
    }

    /** Like {@link #resolvePath}, and says whether the user named the file (so a missing one is an error). */
    public static ConfigLocation locate(String cliOption, Map<String, String> env) {
        if (cliOption != null && !cliOption.isBlank()) return new ConfigLocation(Path.of(cliOption), true);
        String fromEnv = env.get(ENV_VAR);
        if (fromEnv != null && !fromEnv.isBlank()) return new ConfigLocation(Path.of(fromEnv), true);
        return new ConfigLocation(Path.of(DEFAULT_NAME), false);
    }
}
