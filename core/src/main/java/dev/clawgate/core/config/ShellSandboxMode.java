package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code tools.shell_sandbox} (SPEC AG-8): what the shell tool's commands run inside. */
public enum ShellSandboxMode {
    /** Bubblewrap, when a probe shows it works here; otherwise the shell tool is off (the default). */
    BWRAP("bwrap"),
    /** No sandbox: an explicit opt-out, logged as a warning at start; the argument checks are all that is left. */
    NONE("none");

    private final String configName;

    ShellSandboxMode(String configName) {
        this.configName = configName;
    }

    /** The value as the config file spells it. */
    public String configName() {
        return configName;
    }

    public static Optional<ShellSandboxMode> parse(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        for (ShellSandboxMode m : values()) {
            if (m.configName.equals(v)) return Optional.of(m);
        }
        return Optional.empty();
    }
}
