package dev.clawgate.server.config;

import dev.clawgate.core.config.CliProviderSettings;
import dev.clawgate.core.config.CliProviderSettings.PromptMode;
import dev.clawgate.core.config.CliProviderSettings.PromptVia;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads the keys of a {@code kind = "cli"} provider table (SPEC SP-4); other kinds may not use them. */
final class CliProviderSection {
    static final String KIND = "cli";
    private static final List<String> KEYS = List.of(
            "command",
            "args",
            "env",
            "workdir",
            "timeout",
            "prompt_via",
            "prompt_mode",
            "overflow_patterns",
            "max_processes");

    private CliProviderSection() {}

    /** The CLI settings of a {@code cli} provider; null for another kind (which must not set CLI keys). */
    static CliProviderSettings read(String kind, TableReader t) {
        if (!KIND.equals(kind)) {
            for (String key : KEYS) {
                if (t.has(key)) throw t.error(t.keyPath(key), "is only for kind = \"cli\" providers");
            }
            return null;
        }
        String command = t.string("command");
        if (command == null || command.isBlank()) {
            throw t.error(t.keyPath("command"), "is missing; a kind = \"cli\" provider needs the program to run");
        }
        Map<String, String> env = new LinkedHashMap<>();
        TableReader envTable = t.table("env");
        for (String name : envTable.keys()) {
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                throw t.error(envTable.keyPath(name), "is not a valid variable name");
            env.put(name, envTable.string(name));
        }
        Path workdir = t.has("workdir") ? t.directory("workdir", null) : null;
        Duration timeout = t.duration("timeout", CliProviderSettings.DEFAULT_TIMEOUT, Duration.ofSeconds(1));
        PromptVia via = t.choice(
                "prompt_via",
                PromptVia.STDIN,
                v -> switch (v) {
                    case "stdin" -> Optional.of(PromptVia.STDIN);
                    case "file" -> Optional.of(PromptVia.FILE);
                    default -> Optional.empty();
                },
                "a prompt channel",
                "stdin, file");
        PromptMode mode = t.choice(
                "prompt_mode",
                PromptMode.MINIMAL,
                v -> switch (v) {
                    case "minimal" -> Optional.of(PromptMode.MINIMAL);
                    case "full" -> Optional.of(PromptMode.FULL);
                    default -> Optional.empty();
                },
                "a prompt mode",
                "minimal, full");
        List<String> patterns = t.strings("overflow_patterns", CliProviderSettings.DEFAULT_OVERFLOW_PATTERNS);
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).isBlank())
                throw t.error(t.keyPath("overflow_patterns") + "[" + i + "]", "must not be empty");
        }
        int maxProcesses = t.integer("max_processes", CliProviderSettings.DEFAULT_MAX_PROCESSES, 1, 1024);
        return new CliProviderSettings(
                command.strip(),
                t.strings("args", List.of()),
                env,
                workdir,
                timeout,
                via,
                mode,
                patterns,
                maxProcesses);
    }
}
